"""The old name of ``duelmail.delivery``: code written against ``duelmail.watch`` (``watch.sync_git``,
``watch.fetch_mail``, ``watch.watch``...) keeps working. New code imports the module that holds what it needs:
``delivery.arrivals``, ``delivery.mail``, ``delivery.git``, ``delivery.reminders`` or ``delivery.watch``."""

from duelmail.delivery.arrivals import *  # noqa: F403
from duelmail.delivery.git import *  # noqa: F403
from duelmail.delivery.mail import *  # noqa: F403
from duelmail.delivery.reminders import *  # noqa: F403
from duelmail.delivery.watch import *  # noqa: F403
