"""Real mail servers for the tests: Debian's Dovecot (IMAP, LMTP, submission) and OpenSMTPD (SMTP) on loopback.

OpenSMTPD relays every message it accepts into Dovecot's LMTP socket; Dovecot keeps it in a
Maildir and serves it by IMAP. TLS is tested on Dovecot (IMAPS, IMAP STARTTLS, and its submission
service with login, STARTTLS and implicit TLS, relaying into OpenSMTPD), with a certificate from a
throwaway CA made for the session: Debian's OpenSMTPD 6.8 fails every TLS handshake with OpenSSL 3
("EVP lib"), so it serves plain SMTP only. Each server runs from a throwaway configuration in a temporary
folder and is stopped by the fixture. OpenSMTPD has its queue and control socket compiled in
(/var/spool/smtpd, /run/smtpd.sock), so it runs in a private mount namespace where both are
bind-mounted from the temporary folder: two test workers never share a queue. Mail processes run
as ``nobody`` (Dovecot refuses uid 0 for them).
"""

from __future__ import annotations

import imaplib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

PASSWORD = "duelmail-test-password"
NEED = ("the mail tests need Debian's Dovecot and OpenSMTPD: "
        "apt-get install dovecot-imapd dovecot-lmtpd dovecot-submissiond opensmtpd (and run them as root)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_env() -> dict[str, str]:
    """The servers stand for other machines with clocks of their own: under `make test-future` they are not
    given libfaketime's shifted clock (Dovecot's logins stall under it); only duelmail's processes are."""
    return {k: v for k, v in os.environ.items() if k != "LD_PRELOAD" and not k.startswith("FAKETIME")}


def wait_port(port: int, proc: subprocess.Popen, log: Path, deadline: float = 20) -> None:
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}: {log.read_text() if log.exists() else ''}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.02)  # polling a condition with a deadline, not a timing sleep
    raise RuntimeError(f"nothing listens on port {port} after {deadline}s: {log.read_text() if log.exists() else ''}")


DOVECOT = """\
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
instance_name = duelmail-test-{imap}
protocols = imap lmtp submission
hostname = localhost
submission_relay_host = 127.0.0.1
submission_relay_port = {smtp}
submission_relay_trusted = yes
listen = 127.0.0.1
ssl = yes
ssl_cert = <{root}/tls/cert.pem
ssl_key = <{root}/tls/key.pem
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:~/Maildir
default_login_user = {login_user}
default_internal_user = {login_user}
first_valid_uid = 1
passdb {{
  driver = static
  args = password={password}
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={root}/mail/%n
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {imap}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {imaps}
    ssl = yes
  }}
}}
service submission-login {{
  inet_listener submission {{
    address = 127.0.0.1
    port = {sub}
  }}
  inet_listener submissions {{
    address = 127.0.0.1
    port = {subs}
    ssl = yes
  }}
}}
service lmtp {{
  unix_listener {root}/lmtp.sock {{
    mode = 0666
  }}
}}
"""

SMTPD = """\
table vusers {{ "@" = "{mail_user}" }}
listen on 127.0.0.1 port {smtp}
action "dovecot" lmtp "{root}/lmtp.sock" rcpt-to virtual <vusers>
match from any for any action "dovecot"
"""


def make_certificates(folder: Path) -> Path:
    """A throwaway CA and a certificate for 127.0.0.1 and localhost signed by it; returns the CA's file."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "duelmail test CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
          .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(hours=1))
          .not_valid_after(now + datetime.timedelta(days=2))
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                       data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                       crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
          .sign(ca_key, hashes.SHA256()))
    cert = (x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")]))
            .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1)).not_valid_after(now + datetime.timedelta(days=2))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"),
                                                        x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256()))
    pem = serialization.Encoding.PEM
    (folder / "ca.pem").write_bytes(ca.public_bytes(pem))
    (folder / "cert.pem").write_bytes(cert.public_bytes(pem))
    keyfile = folder / "key.pem"
    keyfile.write_bytes(key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    os.chmod(keyfile, 0o600)
    return folder / "ca.pem"


class MailServers:
    """Dovecot + OpenSMTPD in a temporary folder; ``account(name)`` adds a mailbox user."""

    def __init__(self):
        for prog in ("/usr/sbin/dovecot", "/usr/sbin/smtpd"):
            if not Path(prog).exists():
                raise RuntimeError(f"{prog} is missing: {NEED}")
        if os.getuid() != 0 or shutil.which("unshare") is None:
            raise RuntimeError(NEED)
        self.root = Path(tempfile.mkdtemp(prefix="dm-mail-"))
        os.chmod(self.root, 0o755)
        self.imap_port, self.smtp_port = free_port(), free_port()
        self.imaps_port, self.sub_port, self.subs_port = free_port(), free_port(), free_port()
        user = pwd.getpwnam("nobody")
        self.uid, self.gid, self.mail_user = user.pw_uid, user.pw_gid, "nobody"
        for d in ("run", "state", "mail", "spool", "smtprun", "tls"):
            (self.root / d).mkdir()
        self.ca_file = make_certificates(self.root / "tls")
        os.chown(self.root / "mail", self.uid, self.gid)
        (self.root / "dovecot.conf").write_text(DOVECOT.format(root=self.root, imap=self.imap_port,
                                                               imaps=self.imaps_port, smtp=self.smtp_port,
                                                               sub=self.sub_port, subs=self.subs_port,
                                                               login_user="dovenull", password=PASSWORD,
                                                               uid=self.uid, gid=self.gid))
        (self.root / "smtpd.conf").write_text(SMTPD.format(root=self.root, smtp=self.smtp_port,
                                                           mail_user=self.mail_user))
        self.procs: list[subprocess.Popen] = []
        self.names: set[str] = set()

    def start(self) -> MailServers:
        try:
            return self._start()
        except BaseException:
            self.stop()  # whatever did start is stopped, and its folder removed
            raise

    def _start(self) -> MailServers:
        env = server_env()
        dove = subprocess.Popen(["/usr/sbin/dovecot", "-F", "-c", str(self.root / "dovecot.conf")], env=env,
                                stdout=subprocess.DEVNULL, stderr=open(self.root / "dovecot.err", "w"))
        self.procs.append(dove)
        wait_port(self.imap_port, dove, self.root / "dovecot.err")
        slog = self.root / "smtpd.log"
        script = (f"mount --bind {self.root}/spool /var/spool && mount --bind {self.root}/smtprun /run && "
                  f"exec /usr/sbin/smtpd -d -f {self.root}/smtpd.conf")
        smtp = subprocess.Popen(["unshare", "-m", "sh", "-c", script], env=env, stdout=open(slog, "w"),
                                stderr=subprocess.STDOUT)
        self.procs.append(smtp)
        wait_port(self.smtp_port, smtp, slog)
        for port in (self.imaps_port, self.sub_port, self.subs_port):
            wait_port(port, dove, self.root / "dovecot.err")
        return self

    def stop(self) -> None:
        for p in reversed(self.procs):
            p.terminate()
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        shutil.rmtree(self.root, ignore_errors=True)

    def account(self, name: str) -> str:
        """A fresh mailbox ``name`` (unique in this server; every user has the one test password)."""
        assert name not in self.names, name
        self.names.add(name)
        return f"{name}@example.org"

    def imap(self, user: str) -> imaplib.IMAP4:
        c = imaplib.IMAP4("127.0.0.1", self.imap_port, timeout=10)
        c.login(user, PASSWORD)
        return c

    def count(self, user: str, folder: str = "INBOX") -> int:
        c = self.imap(user)
        try:
            typ, data = c.status(folder, "(MESSAGES)")
            if typ != "OK":
                return 0
            return int(data[0].decode().rsplit("MESSAGES", 1)[1].strip(" )"))
        finally:
            c.logout()

    def wait_for(self, user: str, n: int, deadline: float = 20) -> None:
        """Wait until ``user``'s inbox holds at least ``n`` messages (delivery is asynchronous)."""
        end = time.monotonic() + deadline
        while time.monotonic() < end:
            if self.count(user) >= n:
                return
            time.sleep(0.02)  # polling a condition with a deadline
        log = (self.root / "smtpd.log").read_text()[-2000:]
        raise AssertionError(f"{user}'s inbox has {self.count(user)} messages, not {n}, after {deadline}s\n{log}")

    def settings(self, user: str, **over):
        from duelmail.transport.mail import MailSettings

        s = MailSettings(smtp_host="127.0.0.1", smtp_port=self.smtp_port, smtp_security="plain",
                         imap_host="127.0.0.1", imap_port=self.imap_port, imap_security="plain", imap_user=user)
        for k, v in over.items():
            setattr(s, k, v)
        return s
