"""Email over SMTP: one multipart/alternative message (plain text + HTML) per delivery.

Options::

    type: email
    to: [me@example.org]            # a string or a list
    from: watcher@example.org
    smtp: {host: localhost, port: 25, starttls: false, ssl: false,
           username: null, password_env: null, timeout: 30,
           ca_file: null}                  # a CA bundle for a private CA

smtplib runs in a worker thread; every socket operation is bounded by ``timeout``.
"""

from __future__ import annotations

import asyncio
import smtplib
import ssl
from collections.abc import Mapping
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from pathlib import Path
from typing import Any

from watcher.config import ChannelConfig
from watcher.errors import ConfigError, NotifyError
from watcher.notify.base import Message, Notifier, Routing, check_options, option_list, parse_routing, secret_from_env
from watcher.notify.render import render_html, render_text, subject_line

__all__ = ["EmailNotifier", "SmtpSettings", "build_email"]

_SMTP_KEYS = frozenset({"host", "port", "starttls", "ssl", "username", "password_env", "timeout", "ca_file"})


@dataclass(frozen=True, kw_only=True)
class SmtpSettings:
    host: str = "localhost"
    port: int = 25
    starttls: bool = False
    ssl: bool = False
    username: str | None = None
    password: str | None = None
    timeout: float = 30.0
    #: A CA bundle for servers with a private CA; the system's CAs otherwise.
    ca_file: str | None = None

    def tls_context(self) -> ssl.SSLContext:
        """Certificate and host name are always verified."""
        return ssl.create_default_context(cafile=self.ca_file)

    def __repr__(self) -> str:
        # The password must never reach a log line or a traceback.
        return f"SmtpSettings(host={self.host!r}, port={self.port}, starttls={self.starttls}, ssl={self.ssl})"


def _parse_smtp(raw: Any, environ: Mapping[str, str], where: str) -> SmtpSettings:
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise ConfigError(f"{where}: 'smtp' must be a mapping")
    check_options(raw, _SMTP_KEYS, (), f"{where}.smtp")
    use_ssl, starttls = bool(raw.get("ssl", False)), bool(raw.get("starttls", False))
    if use_ssl and starttls:
        raise ConfigError(f"{where}.smtp: choose either 'ssl' or 'starttls', not both")
    password = secret_from_env(raw, "password_env", environ, f"{where}.smtp")
    if password and not raw.get("username"):
        raise ConfigError(f"{where}.smtp: 'password_env' needs 'username'")
    try:
        port = int(raw.get("port") or (465 if use_ssl else 587 if starttls else 25))
        timeout = float(raw.get("timeout") or 30)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{where}.smtp: 'port' and 'timeout' must be numbers") from exc
    return SmtpSettings(
        host=str(raw.get("host") or "localhost"),
        port=port,
        starttls=starttls,
        ssl=use_ssl,
        username=raw.get("username"),
        password=password,
        timeout=timeout,
        ca_file=_ca_file(raw.get("ca_file"), where),
    )


def _ca_file(value: Any, where: str) -> str | None:
    if not value:
        return None
    path = Path(str(value)).expanduser()
    if not path.is_file():
        raise ConfigError(f"{where}.smtp: 'ca_file' {str(path)!r} is not a readable file")
    return str(path)


def build_email(message: Message, *, sender: str, recipients: tuple[str, ...]) -> EmailMessage:
    """The MIME message for ``message``: subject, text part, HTML part."""
    mail = EmailMessage()
    mail["Subject"] = subject_line(message)
    mail["From"] = sender
    mail["To"] = ", ".join(recipients)
    mail["Date"] = formatdate(localtime=False, usegmt=True)
    # Derived from the idempotency key, so a resent delivery carries the same Message-ID.
    mail["Message-ID"] = make_msgid(idstring=message.idempotency_key, domain="watcher.invalid")
    mail["X-Watcher-Delivery"] = message.idempotency_key
    mail["Auto-Submitted"] = "auto-generated"
    mail.set_content(render_text(message))
    mail.add_alternative(render_html(message), subtype="html")
    return mail


class EmailNotifier(Notifier):
    """Sends each delivery as one email to a fixed list of recipients."""

    type = "email"
    options = frozenset({"to", "from", "smtp"})
    required = frozenset({"to", "from"})

    def __init__(
        self, *, name: str, routing: Routing, sender: str, recipients: tuple[str, ...], smtp: SmtpSettings
    ) -> None:
        super().__init__(name=name, routing=routing)
        self.sender = sender
        self.recipients = recipients
        self.smtp = smtp

    @property
    def target(self) -> str:
        return "mailto:" + ",".join(self.recipients)

    @classmethod
    def from_config(
        cls, channel: ChannelConfig, environ: Mapping[str, str], *, default_name: str | None = None
    ) -> EmailNotifier:
        name, options = cls.checked_options(channel, default_name)
        where = cls.where(name)
        recipients = option_list(options["to"], "to", where)
        if bad := [r for r in recipients if "@" not in r]:
            raise ConfigError(f"{where}: {bad[0]!r} in 'to' is not an email address")
        return cls(
            name=name,
            routing=parse_routing(options, where),
            sender=str(options["from"]),
            recipients=recipients,
            smtp=_parse_smtp(options.get("smtp"), environ, where),
        )

    def _open(self) -> smtplib.SMTP:
        s = self.smtp
        if s.ssl:
            return smtplib.SMTP_SSL(s.host, s.port, timeout=s.timeout, context=s.tls_context())
        client = smtplib.SMTP(s.host, s.port, timeout=s.timeout)
        if s.starttls:
            try:
                client.starttls(context=s.tls_context())
            except BaseException:
                client.close()
                raise
        return client

    def _send_blocking(self, mail: EmailMessage) -> None:
        with self._open() as client:
            if self.smtp.username:
                client.login(self.smtp.username, self.smtp.password or "")
            client.send_message(mail, from_addr=self.sender, to_addrs=list(self.recipients))

    async def send(self, message: Message) -> None:
        mail = build_email(message, sender=self.sender, recipients=self.recipients)
        where = f"{self.name}: SMTP {self.smtp.host}:{self.smtp.port}"
        try:
            await asyncio.to_thread(self._send_blocking, mail)
        except smtplib.SMTPRecipientsRefused as exc:
            raise NotifyError(f"{where}: recipients refused: {', '.join(exc.recipients)}", retryable=False) from exc
        except smtplib.SMTPResponseException as exc:
            # 5xx is permanent (bad auth, rejected sender); 4xx means try again later.
            text = exc.smtp_error.decode(errors="replace") if isinstance(exc.smtp_error, bytes) else exc.smtp_error
            raise NotifyError(f"{where}: {exc.smtp_code} {text}", retryable=exc.smtp_code < 500) from exc
        except (smtplib.SMTPException, OSError) as exc:
            raise NotifyError(f"{where}: {type(exc).__name__}: {exc}", retryable=True) from exc
