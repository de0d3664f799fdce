"""The start screen's rows for the table settings, and the settings the players chose there."""

from __future__ import annotations

from display.start_screen import Choice
from tilescribe.settings import TableSettings

_MODULI = tuple(str(m) for m in range(5, 21))
_ORDERS = tuple(str(n) for n in range(3, 13))
_PLAYERS = tuple(str(n) for n in range(1, 7))


def _row(label: str, options: tuple[str, ...], value: str) -> Choice:
    return Choice(label, options, options.index(value) if value in options else 0)


def start_choices(settings: TableSettings) -> tuple[Choice, ...]:
    """The start screen's rows, set to ``settings`` (§3-1: what the players agree on)."""
    g = settings.game
    auto = "off" if settings.auto_end_seconds is None else f"{settings.auto_end_seconds:g} s"
    return (
        _row("Players", _PLAYERS, str(len(g.players))),
        _row("Modulus (§1-3)", _MODULI, str(g.modulus)),
        _row("Board order (§1-2)", _ORDERS, str(g.board.order)),
        _row("Wild tiles (§7-2 policy)", ("none", "A", "B", "C", "D", "E"), g.wild_policy or "none"),
        _row("Hash swap (§7-4)", ("no", "yes"), "yes" if g.hash_swap else "no"),
        _row("Modulus marker (§8)", ("no", "yes"), "yes" if g.marker else "no"),
        _row("Bonus cells (§9)", ("none", "9A", "9B"), g.bonus or "none"),
        _row("Auto end of turn", ("off", "4 s", "6 s", "8 s"), auto),
    )


def chosen_settings(settings: TableSettings, choices: tuple[Choice, ...]) -> TableSettings:
    """``settings`` changed as chosen on the start screen (player names kept, new ones numbered).

    Raises:
        SettingsError: the chosen combination is not allowed (e.g. wild policy B with a modulus
            that is not prime, the hash swap without wild tiles); the message says which.
    """
    players, modulus, order, wild, swap, marker, bonus, auto = (c.value for c in choices)
    names = list(settings.game.players)[: int(players)]
    names += [f"Player {i + 1}" for i in range(len(names), int(players))]
    data = settings.to_dict()
    data.update(
        players=names,
        modulus=int(modulus),
        order=int(order),
        dropped=[],
        wild=None if wild == "none" else wild,
        hash_swap=swap == "yes",
        marker=marker == "yes",
        bonus=None if bonus == "none" else bonus,
        auto_end_seconds=None if auto == "off" else float(auto.split()[0]),
    )
    return TableSettings.from_dict(data, "the start screen")
