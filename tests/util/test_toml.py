"""Reading TOML from anyone: the limits are checked before tomllib runs, every refusal is one line of
duelmail's own error, and what crashed or stalled duelmail once is refused in milliseconds (issue 14, part 6)."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duelmail.errors import DuelmailError, LocalFileError
from duelmail.util import toml


def refused(text: str, *needles: str) -> str:
    t = time.process_time()
    with pytest.raises(DuelmailError) as e:
        toml.loads(text, "in.toml")
    assert time.process_time() - t < 1.0
    msg = str(e.value)
    assert msg.startswith("in.toml: ") and "\n" not in msg
    for n in needles:
        assert n in msg
    return msg


def test_nesting_1500_deep_is_refused_not_a_recursion_error():
    refused("a = " + "[" * 1500 + "]" * 1500, "nested more than 16 deep")
    refused("a = " + "{b=" * 1500 + "1" + "}" * 1500, "nested more than 16 deep")


def test_long_dotted_table_headers_are_refused_before_the_quadratic_parse():
    # 400 KB of one header took tomllib 149 s
    refused("[" + ".".join(["a"] * 200_000) + "]\n", "more than 16 parts")
    refused(".".join(["a"] * 40) + " = 1\n", "more than 16 parts")
    refused('"a"."b"."c".' * 10 + "d = 1", "more than 16 parts")


def test_numbers_of_thousands_of_digits_are_refused():
    refused("round = " + "9" * 5000, "more than 24 digits")
    refused("round = 0x" + "f" * 5000, "more than 24 digits")
    refused("x = [1.0, " + "1" * 30 + "]", "more than 24 digits")


def test_size_is_capped_before_anything_else():
    refused("# " + "x" * toml.MAX_BYTES, "far larger")


def test_brackets_dots_and_digits_inside_strings_and_comments_are_text():
    text = ('a = "[[[[[[[[[[[[[[[[[[[[ a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r 99999999999999999999999999999"\n'
            "b = '{{{{{{{{{{{{{{{{{{{{'  # ]]]]]]]]]]]]]]]]]]]]]]]] 0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0\n"
            'c = """\n[[[[[[[[[[[[[[[[[[\n"""\n'
            "[deck.a.steps]\nx = [" + ", ".join(f"{i}.5" for i in range(1, 18)) + "]\n")
    data = toml.loads(text, "in.toml")
    assert data["a"].startswith("[[[") and data["deck"]["a"]["steps"]["x"][-1] == 17.5


def test_honest_depth_and_numbers_pass():
    assert toml.loads("a = [[[[1]]]]\nb = 9223372036854775807\n[x.y.z]\nw = {v = {u = 1}}", "f")["b"] == 2**63 - 1


def test_read_names_the_file_for_every_fault(tmp_path):
    p = tmp_path / "config.toml"
    p.write_bytes(b"default = \xff")
    with pytest.raises(LocalFileError, match=f"{p}: not UTF-8"):
        toml.read(p, LocalFileError)
    p.write_text("default = [")
    with pytest.raises(LocalFileError, match=f"{p}: not valid TOML"):
        toml.read(p, LocalFileError)
    with pytest.raises(LocalFileError, match="cannot read"):
        toml.read(tmp_path / "missing.toml", LocalFileError)


@pytest.mark.parametrize("text", [
    'identity = "alice"\nseat = 0\n', 'identity = "bob.x-1"\nseat = 12\n', "", "seat = 3",
    "seat = 01\n", 'identity = "a\\"b"\n', 'identity = "a"\nidentity = "b"\n', "identity = 'a'\n", "seat = 3 # c\n",
    'identity = "é"\n', "seat =0\n", "x = 1\n", 'seat = "1"\n', "seat = 1_0\n", "seat = +1\n", 'identity = "a\\\\b"\n',
    'identity = "tab\there"\n', "seat = 0\r\n", "seat = [",
])
def test_a_seat_memo_read_without_a_toml_parser_reads_as_tomllib_does(text):
    """``.me.toml`` as ``set_me`` writes it is read by ``home._plain_memo`` (``status`` from its cache loads no TOML
    parser); anything else is left to the TOML reader (None), never read otherwise than tomllib reads it."""
    import tomllib

    from duelmail.home import _plain_memo

    fast = _plain_memo(text)
    try:
        slow = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        slow = None
    assert fast is None or fast == slow
    if text.startswith("identity = \"alice\"") or text.startswith("identity = \"bob"):
        assert fast == slow


def test_a_string_left_open_is_blanked_to_the_end_of_its_line_or_of_the_text():
    """The limits' scan takes an open basic string to the end of its line and an open multi-line string to the end
    of the text (tomllib refuses both after): linear, where a failed match was tried again from every later quote
    (the fuzz seeds of ``duelmail.testing.fuzz`` time it)."""
    toml.check_limits('a = "' + "[" * 40, "w")  # inside the open string: text, not nesting
    toml.check_limits('a = "\\"' + "[" * 40 + "\\", "w")
    toml.check_limits('a = """' + "[" * 40 + '\n' + "[" * 40, "w")
    with pytest.raises(DuelmailError, match="nested more than"):
        toml.check_limits('a = "open\nb = ' + "[" * 40, "w")  # the next line is scanned
    with pytest.raises(DuelmailError):
        toml.loads('a = "open' + "[" * 40, "w")


def assert_reads_as_tomllib(text: str) -> dict | None:
    """``loads`` reads ``text`` as tomllib does (None: both refuse it); returns what tomllib read."""
    import tomllib

    try:
        expected = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        expected = None
    try:
        got = toml.loads(text, "in.toml")
    except DuelmailError:
        got = None
    assert got == expected
    return expected


_PIECES = ['"', "'", '"""', "'''", "\\", "\\\"", "#", "a", "é", " ", "\t", "\n", "=", "[", "]", "{", "}", ",",
           ".", "1", "\x7f", "\x01", "key", "x = ", '"b64+/=_-"', "'lit'", '"it\'s"', '"e\\\\s"', '"\\u00e9"',
           "[t]\n", "[[a]]\n"]


@given(st.lists(st.sampled_from(_PIECES), max_size=24).map("".join))
@settings(max_examples=3000, deadline=None)
def test_reading_basic_strings_as_literal_ones_reads_every_text_as_tomllib_does(text):
    """``loads`` hands tomllib each one-line basic string without escapes or apostrophes as a literal string
    (``_as_literal``, six times faster to read): the same value, or the same refusal, for any text."""
    assert_reads_as_tomllib(text)


def test_a_turn_files_base64_reads_as_a_literal_string():
    """What ``_as_literal`` rewrites and what it leaves: escapes, apostrophes, multi-line strings, comments."""
    import re

    def rewritten(text: str) -> str:
        return toml._OPAQUE.sub(toml._as_literal, text)

    assert rewritten('points = ["AbC+/=", "x_-"]\n') == "points = ['AbC+/=', 'x_-']\n"
    for kept in ['a = "it\'s"\n', 'a = "tab\\t"\n', 'a = """x"""\n', '# "quoted"\n', "a = 'lit'\n", 'a = "open\n']:
        assert rewritten(kept) == kept
    assert re.fullmatch(r"[^\"]*", rewritten('[t."k"]\n"q" = "v" # "c"\n').split("#")[0])


@given(st.lists(st.text(alphabet=st.sampled_from("aZ9+/=_-'\"\\ é\t#[]{}.,\x7f\u2028"), max_size=12), max_size=6))
@settings(max_examples=500, deadline=None)
def test_any_string_written_as_a_basic_string_reads_as_tomllib_reads_it(values):
    """Valid documents too (JSON's escapes are TOML's): each value, however it is quoted and escaped, reads the same
    through ``loads`` as through tomllib, including those ``_as_literal`` hands on as literal strings."""
    import json

    text = "".join(f"k{i} = {json.dumps(v, ensure_ascii=i % 2 == 0)}\n" for i, v in enumerate(values))
    expected = assert_reads_as_tomllib(text)
    if expected is not None:
        assert expected == {f"k{i}": v for i, v in enumerate(values)}


MULTILINE_QUOTES = '''# toml-test valid/string/multiline-quotes: quotes right after the opening and before the closing
lit_one = \'\'\'\'one quote\'\'\'\'
lit_two = \'\'\'\'\'two quotes\'\'\'\'\'
lit_one_space = \'\'\' 'one quote' \'\'\'
lit_two_space = \'\'\' ''two quotes'' \'\'\'

one = """"one quote""""
two = """""two quotes"""""
one_space = """ "one quote" """
two_space = """ ""two quotes"" """

mismatch1 = """aaa\'\'\'bbb"""
mismatch2 = \'\'\'aaa"""bbb\'\'\'

escaped = """lol\\""""""
'''


def test_multi_line_strings_closing_with_their_own_quotes_read_as_tomllib_reads_them():
    """toml-test's ``valid/string/multiline-quotes`` (``two = \"\"\"\"\"two quotes\"\"\"\"\"`` was refused)."""
    got = assert_reads_as_tomllib(MULTILINE_QUOTES)
    assert got is not None and got["two"] == '""two quotes""' and got["lit_two"] == "''two quotes''"
    assert got["escaped"] == 'lol"""'


def test_a_basic_string_next_to_apostrophes_is_not_made_a_literal_that_joins_them():
    """``x = ""''''`` is refused as tomllib refuses it (it read as ``x = ''''''``, an empty string)."""
    assert assert_reads_as_tomllib("x = \"\"''''") is None
    assert assert_reads_as_tomllib("x = ''\"\"") is None
    assert assert_reads_as_tomllib("x = [\"\", '']") == {"x": ["", ""]}


def test_every_short_run_of_quotes_and_backslashes_reads_as_tomllib_reads_it():
    """Every value of up to six characters of quotes, apostrophes, backslashes, a letter, a space and a line end:
    the two kinds of divergence a mutation search of toml-test found, and their neighbours."""
    import itertools

    for n in range(1, 7):
        for chars in itertools.product("\"'\\a \n", repeat=n):
            assert_reads_as_tomllib("x = " + "".join(chars))
