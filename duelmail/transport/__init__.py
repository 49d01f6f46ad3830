"""The mechanics of carrying files: a game folder on disk (``archive``, ``folder``, ``kept``, the home's index
``settled``), mail (``mail``: SMTP, IMAP, Maildir, mbox; ``reply``: the mail side of play by reply) and the
``git`` binary (``git``). What a home does with what they carry (apply, answer, sync, remind, watch) is in
``duelmail.delivery``."""
