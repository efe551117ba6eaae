"""``watcher notify test`` and ``watcher deliveries`` through click, against real peers."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import click
import pytest
from click.testing import CliRunner
from notify_support import SECRET, T0, Clock, Receiver, add_change, add_source, free_port, make_db, paper
from servers import serve

from watcher.config import ChannelConfig, Config, parse_config
from watcher.errors import ConfigError
from watcher.notify import build_notifiers
from watcher.notify.commands import register_commands
from watcher.notify.outbox import enqueue_changes


def cli_group() -> click.Group:
    @click.group()
    def cli() -> None:
        pass

    register_commands(cli)
    return cli


def invoke(args: list[str], obj: Any, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(cli_group(), args, obj=obj, env=env)


def config(channels: list[dict[str, Any]]) -> Config:
    return parse_config({"notify": channels})


def test_notify_test_reports_each_channel_and_fails_when_one_does(tmp_path: Path) -> None:
    receiver = Receiver()
    dead_port = free_port()
    with serve(receiver.app()) as url:
        cfg = config([
            {"type": "webhook", "name": "hook", "url": f"{url}/hook", "secret_env": "WH"},
            {"type": "email", "name": "mail", "to": "a@example.org", "from": "w@example.org",
             "smtp": {"host": "127.0.0.1", "port": dead_port, "timeout": 2}},
        ])
        obj = SimpleNamespace(db=make_db(tmp_path), config=cfg, now=Clock())
        result = invoke(["notify", "test"], obj, env={"WH": SECRET})
        assert result.exit_code == 1
        assert f"hook ({url}/hook): OK" in result.output
        assert f"mail (mailto:a@example.org): FAILED: mail: SMTP 127.0.0.1:{dead_port}" in result.output
        assert receiver.hits[0].error is None and receiver.hits[0].verified["type"] == "test"

        only_hook = invoke(["notify", "test", "--channel", "hook"], obj, env={"WH": SECRET})
        assert only_hook.exit_code == 0 and "mail" not in only_hook.output


def test_notify_test_with_bad_config_is_a_one_line_error(tmp_path: Path) -> None:
    cfg = config([{"type": "webhook", "url": "http://127.0.0.1/hook", "secret_env": "MISSING_SECRET"}])
    obj = SimpleNamespace(db=make_db(tmp_path), config=cfg, now=Clock())
    result = invoke(["notify", "test"], obj, env={"MISSING_SECRET": None})
    assert result.exit_code == 1
    assert "Error: notify[webhook]: the environment variable 'MISSING_SECRET'" in result.output
    assert "Traceback" not in result.output


def test_unknown_channel_type_lists_the_known_ones() -> None:
    expected = r"notify\[1\]: unknown channel type 'sms' \(known: apprise, email, webhook\)"
    with pytest.raises(ConfigError, match=expected):
        build_notifiers([ChannelConfig(type="email", options={"to": "a@b.c", "from": "w@b.c"}),
                         ChannelConfig(type="sms", options={})], {})


def test_channel_names_default_to_type_and_must_be_unique() -> None:
    hook = {"url": "http://127.0.0.1/hook", "secret_env": "WH"}
    env = {"WH": SECRET}
    names = [n.name for n in build_notifiers(
        [ChannelConfig(type="webhook", options=hook), ChannelConfig(type="webhook", options=hook),
         ChannelConfig(type="email", options={"to": "a@b.c", "from": "w@b.c"})], env)]
    assert names == ["webhook-1", "webhook-2", "email"]
    with pytest.raises(ConfigError, match="'x' is used twice"):
        build_notifiers([ChannelConfig(type="webhook", options={**hook, "name": "x"}),
                         ChannelConfig(type="webhook", options={**hook, "name": "x"})], env)


def test_deliveries_lists_sends_and_requeues(tmp_path: Path) -> None:
    db = make_db(tmp_path)
    receiver = Receiver(script=[503])
    with serve(receiver.app()) as url:
        cfg = config([{"type": "webhook", "name": "hook", "url": f"{url}/hook", "secret_env": "WH"}])
        channels = build_notifiers(cfg.notify, {"WH": SECRET})
        with db.session() as s:
            jane = add_source(s, "jane")
            [delivery] = enqueue_changes(s, [add_change(s, jane, "paper", paper("A"))], channels, T0)
        clock = Clock()
        obj = SimpleNamespace(db=db, config=cfg, now=clock)

        listed = invoke(["deliveries"], obj)
        assert listed.exit_code == 0
        assert re.search(rf"^{delivery.id}\s+hook\s+pending\s+0\s", listed.output, re.M)

        sent = invoke(["deliveries", "--send"], obj, env={"WH": SECRET})
        assert "sent 0, retrying 1, failed 0" in sent.output
        assert "answered HTTP 503" in sent.output
        assert "HTTP 503" in invoke(["deliveries"], obj).output

        clock.advance(timedelta(minutes=5))
        sent = invoke(["deliveries", "--send"], obj, env={"WH": SECRET})
        assert "sent 1, retrying 0, failed 0" in sent.output
        assert "no pending or failed deliveries" in invoke(["deliveries"], obj).output
        shown = invoke(["deliveries", "--all"], obj).output
        assert "sent" in shown and "2026-11-20 09:35:00" in shown

        refused = invoke(["deliveries", "--retry", str(delivery.id)], obj)
        assert refused.exit_code == 1 and f"no unsent delivery with id {delivery.id}" in refused.output
    assert len(receiver.hits) == 2
