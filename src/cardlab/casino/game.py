"""Table games from a description: a TOML file names the game's shape, deck, rules and pay tables.

Two shapes of game are read (docs/casino.md gives every key):

``game = "ante-play"``
    The player and the dealer get three cards each (three-card ranking: straights beat flushes).
    After an ante the player folds (losing it) or plays, adding ``raise`` antes. The dealer
    qualifies with ``qualifier`` or better; when not, the ante pays ``no_qualify_pays`` and the
    play bet pushes; when the dealer qualifies the better hand wins both bets even money (a tie
    pushes). ``[[ante_bonus]]`` pays the ante on the player's hand whenever the player plays.
    Three Card Poker's Ante & Play.
``game = "let-it-ride"``
    Three equal bets; the player sees three cards and may pull the first bet back, sees a fourth
    (a community card) and may pull the second back; the fifth card is dealt and every bet left
    riding is paid by ``[[outcome]]`` on the five cards (video poker's hand words) or lost.

``game = "mississippi-stud"``
    After an ante the player sees two cards and folds or bets one of ``raises`` (antes; default
    1, 2, 3), sees a community card and folds or bets again, sees a second and does it a third
    time; the third community card is dealt and every bet is paid by ``[[outcome]]`` on the five
    cards (a line paying 0 is a push) or lost. A fold loses the bets made.

``game = "baccarat"``
    Punto banco from ``decks`` decks (1..8) less the cards ``remove``d (those seen): Player,
    Banker and Tie paid ``player_pays``, ``banker_pays`` (0.95: a 5% commission), ``tie_pays``
    (Player and Banker push on a tie), and the pair bets ``player_pair_pays`` and
    ``banker_pair_pays`` (the side's first two cards of one rank; 0 leaves the bet out). Side
    bets (cardlab.casino.baccarat; docs/casino.md): ``either_pair_pays``, ``perfect_pair_pays``
    (and ``perfect_pair_both_pays``), ``dragon_bonus`` (with ``dragon_natural_pays``),
    ``dragon_7_pays`` and ``panda_8_pays``; ``banker_three_card_7_pays = 0`` is EZ Baccarat's
    Banker bet.

``game = "caribbean-stud"``
    Five cards each, one of the dealer's shown; fold or raise (cardlab.casino.caribbean).

``game = "casino-holdem"``
    Two hole cards each and a three-card flop; fold or call, then the turn and river
    (cardlab.casino.holdem).

``game = "ultimate-holdem"``
    Ultimate Texas Hold'em: ante and blind; play 4x or 3x before the flop, 2x on the flop or 1x
    on the river, or fold there (cardlab.casino.uth).

``game = "texas-holdem-bonus"``
    Texas Hold'em Bonus: fold or bet 2 antes before the flop, then check or bet 1 ante on the
    flop and on the turn; no dealer qualifier (cardlab.casino.thb).

``game = "casino-war"``
    One card each from ``decks`` decks less the cards ``remove``d; on a tie, surrender half or go
    to war (cardlab.casino.war); ``war_bonus`` pays on the first bet when the war ties too,
    ``tie_pays`` the tie bet.

The first two may have ``[[side_bet]]`` tables (a ``name`` and ``[[side_bet.pays]]`` lines of
three-card hands) paid on the player's first three cards: Pair Plus, the 3-card bonus; in Let It
Ride, ``cards = 5`` pays on the final five cards by video poker's hand words (the Bonus bet);
in an ante-play game ``cards = 6`` pays on the best five of the player's and the dealer's six
cards (the 6-Card Bonus).
The games against a dealer (Caribbean Stud and the hold'em games) take ``[[side_bet]]`` tables
paid on the player's hand or hole cards, progressives too (cardlab.casino.side_bets).

>>> game = load_game("three-card-poker")
>>> game.name, game.raise_bets, game.qualifier_text, [s.name for s in game.side_bets]
('Three Card Poker', 1, 'Q', ['Pair Plus', '6-Card Bonus'])
>>> parse_game({"name": "x", "game": "pai gow"}, "x.toml")
Traceback (most recent call last):
...
cardlab.errors.PayTableError: x.toml: unknown game 'pai gow' (expected one of: ante-play, let-it-ride, mississippi-stud, baccarat, casino-war, caribbean-stud, casino-holdem, ultimate-holdem, texas-holdem-bonus)
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Mapping

from cardlab.cards import RANKS
from cardlab.casino.table_rules import CATEGORIES, DEALER_GAMES, SHIFT, check_ties, dealer_rules, pay_value
from cardlab.casino.paytable import three_card_paytable
from cardlab.casino.pays import PayTable, parse_pay
from cardlab.casino.side_bets import PokerSideBet, parse_side_bets
from cardlab.casino.video import parse_deck
from cardlab.casino.video_paytable import parse_paytable
from cardlab.dealing import Deck
from cardlab.errors import CardlabError, PayTableError, text_argument, whole_argument
from cardlab.textfile import decode_text

__all__ = ["Game", "SideBet", "GAMES", "builtin_games", "game_file", "load_game", "parse_game", "read_game",
           "qualifier_value", "MAX_GAME_BYTES", "checked_game"]

#: The shapes of game a description may name.
GAMES = ("ante-play", "let-it-ride", "mississippi-stud", "baccarat", "casino-war", "caribbean-stud", "casino-holdem",
         "ultimate-holdem", "texas-holdem-bonus")
MAX_GAME_BYTES = 1 << 20  #: the largest game description read (1 MiB)
_DATA = Path(__file__).with_name("data")
_CATEGORIES = {"pair": 1, "flush": 2, "straight": 3, "three of a kind": 4, "straight flush": 5}


@dataclass(frozen=True)
class SideBet:
    """A bet paid on the player's first three cards by a three-card pay table, or (``cards`` 5,
    Let It Ride) on the final five cards by a five-card one (video poker's hand words), or
    (``cards`` 6, ante-play) on the best five of the player's and dealer's six cards."""

    name: str
    table: PayTable
    cards: int = 3


@dataclass(frozen=True)
class Game:
    """A table game as its description gives it (see the module docstring)."""

    name: str
    kind: str
    deck: Deck
    side_bets: tuple[SideBet, ...] = ()
    raise_bets: int = 1
    qualifier: int = 0
    qualifier_text: str = "any hand"
    no_qualify_pays: Fraction = Fraction(1)
    ante_bonus: PayTable | None = None
    main: PayTable | None = None
    raises: tuple[int, ...] = (1, 2, 3)
    pays: tuple[tuple[str, Fraction], ...] = ()
    poker_side_bets: tuple[PokerSideBet, ...] = ()

    @property
    def cards(self) -> list[int]:
        """The deck's card ids in order (one of each)."""
        return [i for i, c in enumerate(self.deck.counts) for _ in range(c)]


def qualifier_value(text: object, source: str = "qualifier") -> int:
    """The three-card value of the least hand that qualifies: high-card ranks (``"Q"``,
    ``"Q-6-4"``, ``"A-K"``), a category word (``"pair"``) or ``"any"``.

    >>> hex(qualifier_value("Q")), hex(qualifier_value("pair"))
    ('0xa00', '0x1000')
    >>> qualifier_value("Q-Z")
    Traceback (most recent call last):
    ...
    cardlab.errors.PayTableError: qualifier: cannot read 'Q-Z': give high-card ranks such as "Q" or "Q-6-4", a hand such as "pair", or "any"
    """
    if not isinstance(text, str):
        raise PayTableError(f"{source}: the qualifier must be text such as \"Q\" or \"pair\", got {text!r}")
    word = text.strip().lower()
    if word == "any":
        return 0
    if word in _CATEGORIES:
        return _CATEGORIES[word] << 12
    parts = word.replace("10", "t").split("-")
    ranks = [RANKS.find(p.upper()) if len(p) == 1 else -1 for p in parts]
    if not 1 <= len(ranks) <= 3 or min(ranks) < 0 or ranks != sorted(ranks, reverse=True) or len(set(ranks)) < len(ranks):
        raise PayTableError(f"{source}: cannot read {text!r}: give high-card ranks such as \"Q\" or \"Q-6-4\", "
                            "a hand such as \"pair\", or \"any\"")
    ranks += [0] * (3 - len(ranks))
    return ranks[0] << 8 | ranks[1] << 4 | ranks[2]


def _check_keys(data: Mapping[str, object], known: set[str], where: str) -> None:
    for key in data:
        if key not in known:
            raise PayTableError(f"{where}: unknown key '{key}' (expected one of: {', '.join(sorted(known))})")


def _side_bets(data: object, source: str, five: bool = False) -> tuple[SideBet, ...]:
    if data is None:
        return ()
    if not isinstance(data, list):
        raise PayTableError(f"{source}: side_bet must be a list of [[side_bet]] tables")
    bets = []
    for number, entry in enumerate(data, 1):
        where = f"{source}: side bet {number}"
        if not isinstance(entry, dict):
            raise PayTableError(f"{where}: expected a table with name= and [[side_bet.pays]]")
        _check_keys(entry, {"name", "pays", "cards"}, where)
        name = entry.get("name", f"side bet {number}")
        if not isinstance(name, str) or not name.strip():
            raise PayTableError(f"{where}: name must be text")
        cards = _whole(entry.get("cards", 3), 3, 6, f"{where}: cards")
        allowed = (3, 5) if five else (3, 6)
        if cards not in allowed:
            raise PayTableError(f"{where}: cards must be {' or '.join(map(str, allowed))} in this game, not {cards}")
        if cards >= 5:
            table = parse_paytable({"name": name, "outcome": entry.get("pays")}, f"{where} ({name})")
        else:
            table = three_card_paytable(entry.get("pays"), f"{where} ({name})", name)
        bets.append(SideBet(name.strip(), table, cards))
    return tuple(bets)


def _whole(value: object, low: int, high: int, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise PayTableError(f"{where} must be a whole number {low}..{high}, got {value!r}")
    return value


def _deck(value: object, source: str) -> Deck:
    if not isinstance(value, str):
        raise PayTableError(f"{source}: deck must be text such as \"standard\" or \"9-A\", got {value!r}")
    try:
        deck = parse_deck(value)
    except CardlabError as error:
        raise PayTableError(f"{source}: deck: {error}") from None
    if max(deck.counts) > 1:
        raise PayTableError(f"{source}: deck: a table game's deck holds each card once (one deck)")
    return deck


def parse_game(data: Mapping[str, object], source: str = "game") -> Game:
    """A :class:`Game` from parsed TOML (see the module docstring and docs/casino.md)."""
    kind = data.get("game")
    if kind not in GAMES:
        raise PayTableError(f"{source}: unknown game {kind!r} (expected one of: {', '.join(GAMES)})")
    name = data.get("name", Path(source).stem)
    if not isinstance(name, str) or not name.strip():
        raise PayTableError(f"{source}: name must be text")
    deck = _deck(data.get("deck", "standard"), source)
    if kind in DEALER_GAMES:
        least = 10 if kind == "caribbean-stud" else 9
        if deck.size < least:
            raise PayTableError(f"{source}: a {kind} game needs at least {least} cards; the deck has {deck.size}")
        stud = dealer_rules(data, source, kind)
        return Game(name.strip(), kind, deck, raise_bets=stud.raise_bets, qualifier=stud.qualifier,
                    qualifier_text=stud.qualifier_text, no_qualify_pays=stud.no_qualify_pays, pays=stud.pays,
                    poker_side_bets=parse_side_bets(data.get("side_bet"), source, kind))
    need = 6 if kind == "ante-play" else 5
    if deck.size < need:
        raise PayTableError(f"{source}: a {kind} game needs at least {need} cards; the deck has {deck.size}")
    side = _side_bets(data.get("side_bet"), source, five=kind == "let-it-ride")
    if kind == "ante-play":
        _check_keys(data, {"name", "game", "deck", "side_bet", "ante_play", "ante_bonus"}, source)
        rules = data.get("ante_play", {})
        if not isinstance(rules, dict):
            raise PayTableError(f"{source}: [ante_play] must be a table")
        _check_keys(rules, {"raise", "qualifier", "no_qualify_pays"}, f"{source}: [ante_play]")
        raise_bets = _whole(rules.get("raise", 1), 1, 10, f"{source}: [ante_play] raise")
        qualifier = rules.get("qualifier", "any")
        value = qualifier_value(qualifier, f"{source}: [ante_play] qualifier")
        no_qualify = parse_pay(rules.get("no_qualify_pays", 1), f"{source}: [ante_play] no_qualify_pays")
        bonus = data.get("ante_bonus")
        table = three_card_paytable(bonus, f"{source}: ante_bonus", "ante bonus") if bonus is not None else None
        return Game(name.strip(), kind, deck, side, raise_bets, value, str(qualifier), no_qualify, table)
    if kind == "baccarat":
        return _baccarat(data, name.strip(), source)
    if kind == "casino-war":
        return _war(data, name.strip(), source)
    if kind == "let-it-ride":
        _check_keys(data, {"name", "game", "deck", "side_bet", "outcome"}, source)
        main = parse_paytable({"name": name, "outcome": data.get("outcome")}, source)
        return Game(name.strip(), kind, deck, side, main=main)
    _check_keys(data, {"name", "game", "deck", "outcome", "raises"}, source)
    raises = data.get("raises", [1, 2, 3])
    if not isinstance(raises, list) or not raises:
        raise PayTableError(f"{source}: raises must be a list of whole numbers such as [1, 2, 3]")
    chosen = sorted({_whole(r, 1, 3, f"{source}: each of raises") for r in raises})
    main = parse_paytable({"name": name, "outcome": data.get("outcome")}, source)
    return Game(name.strip(), kind, deck, side, main=main, raises=tuple(chosen))


_BACCARAT_PAYS: dict[str, tuple[str, int | float]] = {"player_pays": ("Player", 1), "banker_pays": ("Banker", 0.95),
                  "tie_pays": ("Tie", 8), "player_pair_pays": ("Player Pair", 11),
                  "banker_pair_pays": ("Banker Pair", 11), "either_pair_pays": ("Either Pair", 0),
                  "perfect_pair_pays": ("Perfect Pair", 0), "dragon_7_pays": ("Dragon 7", 0),
                  "panda_8_pays": ("Panda 8", 0)}
#: Baccarat keys that change a bet above or add one only when given.
_BACCARAT_RULES = ("banker_three_card_7_pays", "perfect_pair_both_pays", "dragon_bonus", "dragon_natural_pays")


def _shoe(data: Mapping[str, object], source: str, default: int) -> Deck:
    """The shoe of ``decks`` decks (1..8) less the cards ``remove``d."""
    decks = _whole(data.get("decks", default), 1, 8, f"{source}: decks")
    deck = Deck.standard(decks)
    remove = data.get("remove")
    if remove is not None:
        if not isinstance(remove, str):
            raise PayTableError(f"{source}: remove must be text such as \"As Kd 7h\", got {remove!r}")
        try:
            deck = deck.remove(remove)
        except CardlabError as error:
            raise PayTableError(f"{source}: remove: {error}") from None
    if deck.size < 7:
        raise PayTableError(f"{source}: a shoe needs at least 7 cards; this one has {deck.size}")
    return deck


def _war(data: Mapping[str, object], name: str, source: str) -> Game:
    _check_keys(data, {"name", "game", "decks", "remove", "war_bonus", "tie_pays"}, source)
    deck = _shoe(data, source, 6)
    pays = (("war bonus", parse_pay(data.get("war_bonus", 0), f"{source}: war_bonus")),
            ("Tie", parse_pay(data.get("tie_pays", 10), f"{source}: tie_pays")))
    return Game(name, "casino-war", deck, pays=pays)


def _baccarat(data: Mapping[str, object], name: str, source: str) -> Game:
    _check_keys(data, {"name", "game", "decks", "remove", *_BACCARAT_PAYS, *_BACCARAT_RULES}, source)
    deck = _shoe(data, source, 8)
    pays = []
    for key, (bet, default) in _BACCARAT_PAYS.items():
        value = parse_pay(data.get(key, default), f"{source}: {key}")
        if value or key in ("player_pays", "banker_pays", "tie_pays"):
            pays.append((bet, value))
    if "banker_three_card_7_pays" in data:  # EZ Baccarat: 0, the Banker pushes a three-card 7
        pays.append(("Banker three-card 7", parse_pay(data["banker_three_card_7_pays"],
                                                      f"{source}: banker_three_card_7_pays")))
    if any(bet == "Perfect Pair" for bet, _ in pays):
        both = data.get("perfect_pair_both_pays", data.get("perfect_pair_pays"))
        pays.append(("Perfect Pair both", parse_pay(both, f"{source}: perfect_pair_both_pays")))
    dragon = data.get("dragon_bonus")
    for key, needs in (("perfect_pair_both_pays", "perfect_pair_pays"), ("dragon_natural_pays", "dragon_bonus")):
        if key in data and not data.get(needs):
            raise PayTableError(f"{source}: {key} is part of the bet {needs} adds: give {needs} too")
    if dragon is not None:
        if not isinstance(dragon, list) or len(dragon) != 6:
            raise PayTableError(f"{source}: dragon_bonus must be the pays of a win by 9, 8, 7, 6, 5 and 4 "
                                f"points, such as [30, 10, 6, 4, 2, 1], got {dragon!r}")
        for margin, pay in zip((9, 8, 7, 6, 5, 4), dragon):
            pays.append((f"Dragon Bonus by {margin}", parse_pay(pay, f"{source}: dragon_bonus (win by {margin})")))
        pays.append(("Dragon Bonus natural", parse_pay(data.get("dragon_natural_pays", 1),
                                                       f"{source}: dragon_natural_pays")))
    return Game(name, "baccarat", deck, pays=tuple(pays))


def builtin_games() -> list[str]:
    """The names of the games shipped with cardlab (their files are in ``cardlab/casino/data``).

    >>> "let-it-ride" in builtin_games()
    True
    """
    return sorted(p.stem for p in _DATA.glob("*.toml"))


def game_file(name: str) -> Path:
    """The file a built-in game is read from.

    >>> game_file("let-it-ride").name
    'let-it-ride.toml'
    """
    if name not in builtin_games():
        raise PayTableError(f"unknown game '{name}': one of {', '.join(builtin_games())}")
    return _DATA / f"{name}.toml"


def load_game(spec: str | Path | Game) -> Game:
    """A built-in game by name, or a game read from a TOML file.

    >>> load_game("/dev/null")
    Traceback (most recent call last):
    ...
    cardlab.errors.PayTableError: /dev/null: empty, not a game description: give at least game = "..." (one of: ante-play, let-it-ride, mississippi-stud, baccarat, casino-war, caribbean-stud, casino-holdem, ultimate-holdem, texas-holdem-bonus)
    """
    if isinstance(spec, Game):
        return spec
    if not isinstance(spec, (str, Path)):
        raise PayTableError(f"a game is a built-in name, a TOML file or a Game, not {type(spec).__name__} {spec!r:.40}")
    text = str(spec)
    path = _DATA / f"{text}.toml" if text in builtin_games() else Path(text)
    if not path.exists():
        raise PayTableError(f"unknown game '{text[:200]}': give a TOML file or one of {', '.join(builtin_games())}")
    if path.is_dir():
        raise PayTableError(f"{text}: a folder, not a game description (a TOML file)")
    source = path.name if path.is_file() else text  # /dev/null, a pipe: named as given
    with open(path, "rb") as stream:  # a device or a pipe has no size to check first: read one byte past the limit
        data = stream.read(MAX_GAME_BYTES + 1)
    return read_game(data, source)


def read_game(data: bytes, source: str = "game") -> Game:
    """A game from the bytes of a TOML file (an upload), read as :func:`load_game` reads a file.

    >>> read_game(b'game = "let-it-ride"\\n[[outcome]]\\nhand = "flush"\\npays = 8\\n', "g.toml").main.outcomes[0].pays
    Fraction(8, 1)
    """
    if len(data) > MAX_GAME_BYTES:
        raise PayTableError(f"{source}: larger than {MAX_GAME_BYTES // 1024} KiB, too large for a game description")
    return _from_text(decode_text(data, source), source)


def _from_text(text: str, source: str) -> Game:
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise PayTableError(f"{source}: nested too deeply to be a game description") from None
    except tomllib.TOMLDecodeError as error:
        raise PayTableError(f"{source}: not a well-formed TOML game description: {error}") from None
    if not data:
        raise PayTableError(f"{source}: empty, not a game description: give at least game = \"...\" (one of: "
                            f"{', '.join(GAMES)})")
    return parse_game(data, source)


def checked_game(game: object, kind: str, ties: object = "fold") -> Game:
    """``game`` when it is a :class:`~cardlab.casino.game.Game` of ``kind`` (one of
    :data:`DEALER_GAMES`) whose rules are as :func:`dealer_rules` reads them, and ``ties`` one of
    :data:`TIES`; else a :class:`PayTableError` naming the value. A Game built or changed in
    Python (``dataclasses.replace``) is checked as a file's is, before anything reaches the
    compiled core.

    >>> from dataclasses import replace
    >>> from cardlab.casino.game import load_game
    >>> checked_game(replace(load_game("casino-holdem"), raise_bets=-1), "casino-holdem")
    Traceback (most recent call last):
    ...
    cardlab.errors.PayTableError: Casino Hold'em: the call must be a whole number from 1 to 10, not -1
    """
    if not isinstance(game, Game) or game.kind != kind:
        shown = f"a {game.kind} Game" if isinstance(game, Game) else f"{type(game).__name__} {game!r:.40}"
        raise PayTableError(f"this analysis takes a {kind} game (cardlab.casino.game.load_game), not {shown}")
    check_ties(ties)
    _, bet, _, _, table_key, _ = DEALER_GAMES[kind]
    name = text_argument(game.name, "a game's name", PayTableError)
    if not isinstance(game.deck, Deck):
        raise PayTableError(f"{name}: the deck must be a cardlab Deck, not {type(game.deck).__name__}")
    whole_argument(game.raise_bets, f"{name}: the {bet or 'raise'}", PayTableError, 1, 10)
    whole_argument(game.qualifier, f"{name}: the qualifier's strength", PayTableError, 0,
                   (len(CATEGORIES) << SHIFT) - 1)
    pay_value(game.no_qualify_pays, f"{name}: no_qualify_pays")
    if not isinstance(game.pays, tuple) or [c for c, *_ in game.pays] != list(CATEGORIES) or \
            any(len(entry) != 2 for entry in game.pays):
        raise PayTableError(f"{name}: pays must be ({table_key}) pairs of each hand category, weakest first: "
                            f"{', '.join(CATEGORIES)}")
    for category, pay in game.pays:
        pay_value(pay, f"{name}: [{table_key}] {category}")
    return game
