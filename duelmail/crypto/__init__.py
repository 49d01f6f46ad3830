"""The crypto layer: encoding, derivation, commitments, sealed memos, the group and the deck.

Everything here is a pure function of its arguments: no files, no clock, no network. Randomness
enters only as explicit bytes (a nonce) or by deterministic derivation from a secret seed
(:mod:`duelmail.crypto.derive`), so an auditor holding the published seeds can recompute it all.
Import the submodules directly, e.g. ``from duelmail.crypto import deck``.
"""
