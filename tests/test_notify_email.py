"""Email through a real SMTP server (aiosmtpd on loopback): headers, parts, grouping, escaping."""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.smtp import AuthResult, LoginPassword
from notify_support import T0, Clock, add_change, add_source, free_port, make_db, paper, smtp_server
from sqlalchemy import select

from watcher.config import ChannelConfig
from watcher.errors import ConfigError, NotifyError
from watcher.notify import EmailNotifier, build_notifiers
from watcher.notify.base import Message
from watcher.notify.outbox import dispatch_pending, enqueue_changes, message_for
from watcher.notify.render import render_html, safe_link
from watcher.store.db import Database
from watcher.store.models import Delivery

EVIL_TITLE = "<script>alert('x')</script> Robust Widgets"


def email_channel(port: int, environ: dict[str, str] | None = None, **smtp: Any) -> EmailNotifier:
    channel = ChannelConfig(
        type="email",
        options={
            "to": ["reader@example.org", "second@example.org"],
            "from": "watcher@example.org",
            "smtp": {"host": "127.0.0.1", "port": port, "timeout": 5, **smtp},
        },
    )
    return EmailNotifier.from_config(channel, environ or {})


def record_check(db: Database, channels: list) -> Delivery:
    """Two sources, three kinds, one hostile title and one hostile link."""
    with db.session() as s:
        jane = add_source(s, "jane", label="Jane Doe")
        lab = add_source(s, "xlab", label="Lab X")
        changes = [
            add_change(s, jane, "news", {"date": "2026-11-01", "text": "Talk at the widget summit",
                                         "url": "https://jane.example.org/news/1"}),
            add_change(s, jane, "paper", paper(EVIL_TITLE, url="javascript:alert(document.cookie)")),
            add_change(s, jane, "paper", paper("Calm Gadgets", arxiv="2611.00001")),
            add_change(s, lab, "role", {"title": "Full Professor", "organization": "Uni", "start": "2026"},
                       change="modified", before={"title": "Associate Professor", "organization": "Uni"}),
        ]
        [delivery] = enqueue_changes(s, changes, channels, T0)
    return delivery


def test_one_readable_email_per_check(tmp_path: Path) -> None:
    db = make_db(tmp_path)
    with smtp_server() as (sink, port):
        channels = [email_channel(port)]
        delivery = record_check(db, channels)
        report = asyncio.run(dispatch_pending(db, channels, Clock()))
        assert report.sent == 1, report.errors
    [mail] = sink.messages
    assert sink.envelopes[0].rcpt_tos == ["reader@example.org", "second@example.org"]
    assert mail["Subject"] == "watcher: 2 new papers, 1 role change, 1 news item — Jane Doe, Lab X"
    assert mail["From"] == "watcher@example.org"
    assert mail["To"] == "reader@example.org, second@example.org"
    assert delivery.idempotency_key in mail["Message-ID"]
    assert mail["X-Watcher-Delivery"] == delivery.idempotency_key
    assert mail.get_content_type() == "multipart/alternative"
    text = mail.get_body(("plain",)).get_content()
    html = mail.get_body(("html",)).get_content()

    # Grouped by source (person/lab), then by kind with headings, in the order of kinds.
    order = [text.index(s) for s in ("== Jane Doe", "New papers", "News", "== Lab X", "Role changes")]
    assert order == sorted(order)
    order = [html.index(s) for s in ("Jane Doe</a></h2>", "<h3>New papers", "<h3>News", "Lab X</a></h2>",
                                     "<h3>Role changes")]
    assert order == sorted(order)
    assert "title: Associate Professor -> Full Professor" in text
    assert "https://arxiv.org/abs/2611.00001" in text

    # Page text is escaped; the hostile link is not a link anywhere.
    assert "<script>" not in html
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; Robust Widgets" in html
    assert "javascript:" not in html.lower() and "javascript:" not in text.lower()
    assert '<a href="https://jane.example.org/news/1">Talk at the widget summit</a>' in html
    assert '<a href="https://arxiv.org/abs/2611.00001">Calm Gadgets</a>' in html
    assert all(href.startswith("https://") for href in re.findall(r'href="([^"]*)"', html))
    # The text part is plain text: the title reads as written.
    assert EVIL_TITLE in text


def test_auth_with_password_from_env() -> None:
    seen: list[tuple[bytes, bytes]] = []

    def authenticator(server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> AuthResult:
        assert isinstance(data, LoginPassword)
        seen.append((data.login, data.password))
        return AuthResult(success=data.password == b"s3cret", handled=False)

    env = {"SMTP_PASSWORD": "s3cret"}
    with smtp_server(authenticator=authenticator, auth_require_tls=False) as (sink, port):
        notifier = email_channel(port, env, username="watcher", password_env="SMTP_PASSWORD")
        asyncio.run(notifier.send(Message(idempotency_key="msg_t", payload={"type": "test", "message": "hi"})))
        bad = email_channel(port, {"SMTP_PASSWORD": "wrong"}, username="watcher", password_env="SMTP_PASSWORD")
        with pytest.raises(NotifyError) as info:
            asyncio.run(bad.send(Message(idempotency_key="msg_u", payload={"type": "test", "message": "hi"})))
    assert seen[0] == (b"watcher", b"s3cret")
    assert len(sink.messages) == 1 and sink.messages[0]["Subject"] == "watcher: test message"
    assert info.value.retryable is False and "535" in str(info.value)
    assert "wrong" not in repr(bad.smtp) and "s3cret" not in repr(notifier.smtp)


def test_dead_smtp_host_is_retried_later(tmp_path: Path) -> None:
    db = make_db(tmp_path)
    channels = [email_channel(free_port())]
    record_check(db, channels)
    clock = Clock()
    report = asyncio.run(dispatch_pending(db, channels, clock))
    assert report.retrying == 1 and "SMTP 127.0.0.1" in report.errors[0].error
    with db.session() as s:
        d = s.scalars(select(Delivery)).one()
        assert (d.status, d.attempts) == ("pending", 1)
        assert d.next_attempt_at > T0 and d.last_error
    clock.advance(timedelta(minutes=1))
    with smtp_server() as (sink, port):
        channels = [email_channel(port)]
        assert asyncio.run(dispatch_pending(db, channels, clock)).sent == 1
    assert len(sink.messages) == 1


def test_alert_email_reads_as_an_alert() -> None:
    message = Message(
        idempotency_key="msg_a",
        payload={"type": "alert", "reason": "failing", "source": "jane", "url": "https://jane.example.org/",
                 "detail": "HTTP 503 <b>five</b> times"},
    )
    with smtp_server() as (sink, port):
        asyncio.run(email_channel(port).send(message))
    [mail] = sink.messages
    assert mail["Subject"] == "watcher alert: jane is failing"
    html = mail.get_body(("html",)).get_content()
    assert "HTTP 503 &lt;b&gt;five&lt;/b&gt; times" in html


@pytest.mark.parametrize(
    ("options", "environ", "expected"),
    [
        ({"to": "a@example.org"}, {}, "'from' is required"),
        ({"from": "w@example.org"}, {}, "'to' is required"),
        ({"to": "nobody", "from": "w@example.org"}, {}, "not an email address"),
        ({"to": "a@example.org", "from": "w@example.org", "smtp": {"hots": "x"}}, {}, "unknown option 'hots'"),
        ({"to": "a@example.org", "from": "w@example.org", "smtp": {"username": "u", "password_env": "PW"}}, {},
         "'PW' named by 'password_env' is not set"),
        ({"to": "a@example.org", "from": "w@example.org", "smtp": {"ssl": True, "starttls": True}}, {},
         "either 'ssl' or 'starttls'"),
    ],
)
def test_bad_email_config_is_refused_clearly(options: dict, environ: dict, expected: str) -> None:
    with pytest.raises(ConfigError, match=expected):
        build_notifiers([ChannelConfig(type="email", options=options)], environ)


@pytest.mark.parametrize(
    ("url", "safe"),
    [
        ("https://a.example/x", True),
        ("HTTP://a.example/", True),
        ("javascript:alert(1)", False),
        (" JavaScript:alert(1)", False),
        ("data:text/html,<b>", False),
        ("//evil.example/", False),
        ("https://a.example/x\nSet-Cookie: 1", False),
        (None, False),
    ],
)
def test_only_http_urls_become_links(url: Any, safe: bool) -> None:
    assert (safe_link(url) is not None) is safe


CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium to run this check)")
def test_email_html_renders_in_headless_chromium(tmp_path: Path) -> None:
    db = make_db(tmp_path)
    channels = [email_channel(1)]
    delivery = record_check(db, channels)
    with db.session() as s:
        html = render_html(message_for(s, s.get(Delivery, delivery.id)))
    page = tmp_path / "mail.html"
    page.write_text(html, encoding="utf-8")
    shot = tmp_path / "mail.png"
    subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         "--window-size=800,1000", f"--screenshot={shot}", page.as_uri()],
        check=True, capture_output=True, timeout=60,
    )
    data = shot.read_bytes()
    assert data.startswith(b"\x89PNG") and len(data) > 10_000
    # A rendered page is not a blank canvas: many distinct colours in the image.
    assert len(set(data[1000:20000])) > 100


def self_signed(tmp_path: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and its key (the test is its own CA)."""
    import datetime as dt
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return cert_path, key_path


def test_starttls_and_ssl_verify_the_server_certificate(tmp_path: Path) -> None:
    import ssl

    cert, key = self_signed(tmp_path)
    server_tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_tls.load_cert_chain(cert, key)
    message = Message(idempotency_key="msg_tls", payload={"type": "test", "message": "over TLS"})

    with smtp_server(tls_context=server_tls, require_starttls=True) as (sink, port):
        asyncio.run(email_channel(port, starttls=True, ca_file=str(cert)).send(message))
        # Without the CA the certificate is refused: a retryable error, not a silent plain-text send.
        with pytest.raises(NotifyError, match="CERTIFICATE_VERIFY_FAILED"):
            asyncio.run(email_channel(port, starttls=True).send(message))
        # The server insists on STARTTLS, so a plain session cannot send.
        with pytest.raises(NotifyError):
            asyncio.run(email_channel(port).send(message))
    assert len(sink.messages) == 1

    with smtp_server(ssl_context=server_tls) as (sink, port):
        asyncio.run(email_channel(port, ssl=True, ca_file=str(cert)).send(message))
    assert [m["Subject"] for m in sink.messages] == ["watcher: test message"]
