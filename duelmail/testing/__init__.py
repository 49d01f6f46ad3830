"""What exists to test duelmail, not to play it (as ``click.testing`` is to click): nothing a player runs imports
it, and ``tests/test_imports.py`` keeps it so.

- ``selfplay``: several seats of one game in memory, each with its own ``Match``, passing signed files;
- ``adversary``: the cheating-bot harness (every cheat a seat could try, played with real signed files);
- ``fuzz``: every door a stranger's text reaches, its corpus and a seeded mutator.
"""
