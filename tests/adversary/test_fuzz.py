"""Fuzzing every parser a stranger's text reaches (issue 14, part 6): the turn-file parser, the armour
decoder, a genesis opened as a game, a player card, an identity file, a custom battlefield, and each
game's notation plus ``apply`` on real states. Only duelmail's own
error type may escape, and no input takes a second. The inputs that once crashed are the first examples;
bench/bench_fuzz.py runs the same doors on 1,000,000 inputs."""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from duelmail.errors import DuelmailError
from duelmail.games.base import game_names
from duelmail.testing.fuzz import SEEDS, Mutator, targets

EXAMPLES = 250
SLOW = 1.0  # seconds of CPU (not wall: the machine is shared): the bar for any one input


def through(door: str, text: str) -> None:
    """Feed ``text`` to ``door``: a DuelmailError is a clean refusal; anything else fails the test."""
    feed = targets()[door].feed  # built once, outside the timing
    t = time.process_time()
    try:
        feed(text)
    except DuelmailError as e:
        assert "\n" not in str(e).strip(), f"{door}: a refusal of several lines: {e}"
    took = time.process_time() - t
    assert took < SLOW, f"{door}: {len(text)} characters took {took:.2f} s: {text[:80]!r}"


def inputs(door: str):
    """Plain text, or a real input of the door (a file, an armour, a legal action) mutated by a seed."""
    mutated = st.integers(0, 2**32).map(lambda seed: Mutator(targets()[door].corpus, seed)())
    return st.one_of(st.text(max_size=300), mutated)


def seeded(kind: str):
    """Every input of ``SEEDS[kind]`` (they crashed duelmail once) as an explicit example."""

    def deco(fn):
        for text in reversed(SEEDS[kind]):
            fn = example(text=text)(fn)
        return fn

    return deco


FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@seeded("turnfile")
@FUZZ
@given(text=inputs("turnfile"))
def test_turn_file_parser_refuses_cleanly(text):
    through("turnfile", text)


@seeded("armour")
@FUZZ
@given(text=inputs("armour"))
def test_armour_decoder_refuses_cleanly(text):
    through("armour", text)


@seeded("mail")
@FUZZ
@given(text=inputs("mail"))
def test_mail_is_searched_for_turns_cleanly(text):
    through("mail", text)


@seeded("genesis")
@FUZZ
@given(text=inputs("genesis"))
def test_genesis_is_refused_cleanly(text):
    through("genesis", text)


@seeded("card")
@FUZZ
@given(text=inputs("card"))
def test_player_card_is_refused_cleanly(text):
    through("card", text)


@seeded("identity")
@FUZZ
@given(text=inputs("identity"))
def test_identity_file_is_refused_cleanly(text):
    through("identity", text)


@seeded("battlefield")
@FUZZ
@given(text=inputs("battlefield"))
def test_battlefield_option_refuses_cleanly(text):
    through("battlefield", text)


@pytest.mark.parametrize("game", game_names())
def test_notation_and_apply_refuse_cleanly(game):
    @seeded("notation")
    @FUZZ
    @given(text=inputs(f"notation:{game}"))
    def run(text):
        through(f"notation:{game}", text)

    run()


@pytest.mark.parametrize("door", sorted(k for k in SEEDS))
def test_every_crash_seed_is_refused_with_duelmail_error(door):
    """The seeds themselves are not accepted: each is refused with the project's own error."""
    doors = [d for d in targets() if d == door or d.startswith(f"{door}:")]
    assert doors
    for name in doors:
        for text in SEEDS[door]:
            if not text:
                continue
            with pytest.raises(DuelmailError):
                targets()[name].feed(text)


@seeded("reply")
@FUZZ
@given(text=inputs("reply"))
def test_a_mail_posing_as_a_reply_is_read_cleanly(text):
    """What the reply play reads of any mail before its checks (issue 40: a malformed From: ended 'watch')."""
    through("reply", text)
