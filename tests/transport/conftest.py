import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent / "cli"))

from servers import MailServers  # noqa: E402


@pytest.fixture(scope="session")
def mail_servers():
    """Dovecot and OpenSMTPD on loopback for this test session; a missing server fails, never skips."""
    try:
        servers = MailServers().start()
    except RuntimeError as e:
        pytest.fail(f"cannot start the mail servers: {e}", pytrace=False)
    yield servers
    servers.stop()
