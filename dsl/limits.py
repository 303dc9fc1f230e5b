"""The sizes a ruleset may ask for, checked at load, so that `check` stays fast and small: a rules
file that asks for more is a load error, not minutes of work and gigabytes of memory."""

MAX_FILE_BYTES = 1_000_000  # one rules file
MAX_TEXT = 10_000  # characters of one text in quotes
MAX_PLAYERS = 100  # `players a to b`: b at most this
MAX_FAMILY = 1_000  # zones of one family `zone x [n]`
MAX_ZONES = 10_000  # zones of a game in all, at a player count
MAX_CARDS = 10_000  # cards of a game in all, `copies` included
