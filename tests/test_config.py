"""The config file: its sections, and one clear error per mistake."""

from __future__ import annotations

import pytest

from watcher.config import parse_config
from watcher.errors import ConfigError
from watcher.fetch import FetchSettings
from watcher.pipeline import fetch_settings


def test_fetch_section_sets_the_fetchers_politeness_and_limits() -> None:
    config = parse_config({"fetch": {"host_delay": 2, "retries": 0, "user_agent": "lab-bot/1 (+https://lab.example)"}})
    settings = fetch_settings(config)
    assert (settings.host_delay, settings.retries) == (2, 0)
    assert settings.user_agent == "lab-bot/1 (+https://lab.example)"
    assert settings.read_timeout == FetchSettings().read_timeout  # the rest keep their defaults


def test_no_config_means_default_fetch_settings() -> None:
    assert fetch_settings(None) == FetchSettings()
    assert fetch_settings(parse_config({})) == FetchSettings()


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"host_dealy": 1}, "fetch: unknown key 'host_dealy'"),
        ({"host_delay": "fast"}, "fetch.host_delay: expected a number"),
        ({"retries": True}, "fetch.retries: expected a number"),
        ([1, 2], "fetch: expected a mapping"),
    ],
)
def test_fetch_section_mistakes_are_named(section: object, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_config({"fetch": section})


def test_a_negative_fetch_setting_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="host_delay must not be negative"):
        fetch_settings(parse_config({"fetch": {"host_delay": -1}}))


def test_read_section_sets_one_pages_budget() -> None:
    from watcher.budget import ReadSettings

    config = parse_config({"read": {"seconds": 2.5, "max_elements": 20000}})
    settings = ReadSettings.from_config(config.read)
    assert (settings.seconds, settings.max_elements) == (2.5, 20000)
    assert settings.max_chars == ReadSettings().max_chars
    assert ReadSettings.from_config(parse_config({}).read) == ReadSettings() and ReadSettings().seconds == 5.0


def test_web_section_sets_the_dashboards_address_token_variable_and_writes() -> None:
    config = parse_config({"web": {"host": "0.0.0.0", "port": 9000, "token_env": "LAB_TOKEN", "allow_writes": True}})
    assert (config.web.host, config.web.port, config.web.token_env, config.web.allow_writes) == (
        "0.0.0.0", 9000, "LAB_TOKEN", True
    )
    defaults = parse_config({}).web
    assert (defaults.host, defaults.port, defaults.token_env, defaults.allow_writes) == ("127.0.0.1", 8465, None, False)


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"secs": 1}, "read: unknown key 'secs'"),
        ({"seconds": "soon"}, "read.seconds: expected a positive number"),
        ({"seconds": 0}, "read.seconds: expected a positive number"),
        ({"max_chars": True}, "read.max_chars: expected a positive number"),
    ],
)
def test_read_section_mistakes_are_named(section: object, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_config({"read": section})


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"hots": "::1"}, "web: unknown key 'hots'"),
        ({"port": 70000}, "web.port: expected a port number"),
        ({"port": "8465"}, "web.port: expected a port number"),
        ({"host": ""}, "web.host: expected an address"),
        ({"token_env": "my token"}, "web.token_env: expected the name of an environment variable"),
        ({"token": "s3cret"}, "web: unknown key 'token'"),
        ({"allow_writes": "yes"}, "web.allow_writes: expected true or false"),
        ("on", "web: expected a mapping"),
    ],
)
def test_web_section_mistakes_are_named(section: object, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_config({"web": section})
