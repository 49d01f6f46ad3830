# Two commands do all set-up on a fresh machine that has Python 3.11 and pip:
#   make demo   installs, plays a whole bot-vs-bot Warlords game through real turn files, verifies it
#   make install  puts the duelmail command on PATH (a link in ~/.local/bin)
#   make test   installs (the Debian packages too, as root: scripts/system-deps.sh) and runs the test suite
#   make test-future  the same suite with the clock 400 days ahead (CI runs it after make test)
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo install test test-future soak lint bench clean system pictures

# Where 'make install' links the duelmail command (a folder on PATH)
BINDIR ?= $(HOME)/.local/bin

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/duelmail demo warlords --seed 7

# Puts the duelmail of .venv on PATH: a link in $(BINDIR) (~/.local/bin, on PATH in most shells)
install: $(STAMP)
	mkdir -p $(BINDIR)
	ln -sf $(abspath $(BIN))/duelmail $(BINDIR)/duelmail
	@case ":$$PATH:" in *":$(BINDIR):"*) echo "duelmail is on your PATH: try 'duelmail --help'";; \
		*) echo "add $(BINDIR) to PATH (e.g. in ~/.profile: export PATH=\"$(BINDIR):\$$PATH\")";; esac

system:
	@bash scripts/system-deps.sh

test: $(STAMP) system
	$(BIN)/ruff check .
	$(BIN)/pytest -n 2

# The whole suite with every process's clock 400 days ahead (Debian's faketime): no test may depend on today's date
test-future: $(STAMP) system
	faketime -f +400d $(BIN)/pytest -n 2 -p no:cacheprovider

# The long run of the seeded whole games: 200 each of Warlords and Summoner through the engine (the suite plays 40)
# and 200 Grid games a deck pairing (the suite plays 60)
soak: $(STAMP)
	DUELMAIL_SEEDS=200 $(BIN)/pytest -n 2 -q -p no:cacheprovider -k "seeded_random_game or per_pairing" \
		tests/games/warlords/test_warlords_engine.py tests/games/summoner/test_summoner_engine.py \
		tests/games/grid/test_grid_play.py

# Screenshots of every game's picture (public view and a seat's, desktop and phone) and of a turn mail's HTML part
# (delivered through the loopback mail servers) and of the replay page from headless Chromium, for docs/pictures.md
pictures: $(STAMP)
	DUELMAIL_PICTURES_OUT=docs/pictures $(BIN)/pytest -q -p no:cacheprovider -k chromium \
		tests/pictures/test_pictures.py tests/transport/test_mail_pictures.py
	DUELMAIL_PICTURES_OUT=docs/pictures $(BIN)/pytest -q -p no:cacheprovider tests/replay/test_replay_page_views.py \
		tests/replay/test_site_index.py
	DUELMAIL_PICTURES_OUT=docs/pictures $(BIN)/pytest -q -p no:cacheprovider -k fits tests/cli/test_several_games.py

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
