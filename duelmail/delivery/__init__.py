"""Delivery: how turns reach a home and leave it, one file per carrier.

- ``arrivals``: what arrives (verify and apply each file, hold what is early) and what a home answers by itself;
- ``mail``: fetching mail and mailing answers;
- ``git``: syncing a shared repository (export, READMEs, commit messages, name checks);
- ``reminders``: reminders and timeout notes by mail;
- ``watch``: the polling loop over every carrier.

The mechanics under them (SMTP/IMAP, the ``git`` binary, a game folder on disk) are in ``duelmail.transport``.
"""
