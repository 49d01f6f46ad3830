"""The terms of Warlords that the rules, the text view and the picture share: phases and card roles.

Kept apart so that ``render.py`` and ``picture.py`` never import ``rules.py`` (which imports them).
"""

# Phases. Who decides: PREP the seat whose turn it is, DEFEND/D_SUPPORT/LAST_CHANCE the defender,
# A_SUPPORT the attacker, EMERGENCY the seat whose draw pile a battle just emptied (an answer window, W-26;
# only without the option mail-shortcuts), OUTSIDE a seat not in the battle that may play an Ace outside battle
# when an attack is made (W-18, three or more players), RENEWAL the attacker after its battle, which may still play
# its Reinforcements joker (W-25) (both answer windows, only without mail-shortcuts); SHUFFLE waits for chance,
# REVEAL for the battle cards' faces.
PREP, DEFEND, A_SUPPORT, D_SUPPORT, REVEAL, LAST_CHANCE, SHUFFLE, OVER, EMERGENCY, OUTSIDE, RENEWAL = range(11)
PHASE_NAMES = ("preparation", "defence", "attacker's support", "defender's support", "reveal",
               "last chance", "reinforcement shuffle", "game over", "emergency reinforcement",
               "an Ace outside battle", "renewal")

# Roles a card can be played in (the claim a face-down play makes).
WARLORD, ARMY, SUPPORT, ACE, JOKER = "Warlord", "Army", "Support", "Ace", "Reinforcements joker"
