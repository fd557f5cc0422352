"""Which contract: ``cardlab bridge makes`` with our two hands and the contracts to compare, from a
page whose defaults answer the commonest question as typed ("3NT or 4S on these two hands over 500
deals": the two hands, then the button). The same job as the double-dummy page's "how often a
contract makes" (:func:`cardlab.web.pages.dd.compute_makes`): each contract's make rate, mean
tricks and expected score side by side, and the IMPs and matchpoints of one over the other on the
same deals."""

from __future__ import annotations

from cardlab.errors import WebInputError
from cardlab.web.page import JobSpec, Page, field_number, field_text
from cardlab.web.uploads import Form

__all__ = ["PAGE", "prepare", "DEALS"]

#: The random deals a page's comparison plays when the field is left as it is.
DEALS = 500


def prepare(form: Form) -> JobSpec:
    """The form as a makes job: our two hands fixed (North and South), the opponents' hands random.

    >>> spec = prepare(Form({"north_cards": "AK32.K54.A32.K32", "south_cards": "QJ54.A32.K54.A54",
    ...                      "contracts": "3NT, 4S"}))
    >>> spec.kwargs["contracts"], spec.kwargs["by"], spec.kwargs["deals"], spec.kwargs["fixed"]["S"]
    (['3NT', '4S'], 'S', 500, 'QJ54.A32.K54.A54')
    """
    from cardlab.web.pages.dd import MAX_CONTRACTS

    fixed = {letter: text for letter, name, label in (("N", "north_cards", "North's cards"),
                                                       ("S", "south_cards", "South's cards"))
             if (text := field_text(form, name, label, max_length=200))}
    contracts = [c.strip() for c in field_text(form, "contracts", "Contracts", required=True, max_length=60).split(",")
                 if c.strip()]
    if not 1 <= len(contracts) <= MAX_CONTRACTS:
        raise WebInputError(f"Contracts: one to {MAX_CONTRACTS} contracts, comma-separated (3NT, 4S), "
                            f"not {len(contracts)}")
    by = field_text(form, "by", "Declarer", max_length=10) or "S"
    kwargs = {"contracts": contracts, "by": by, "vulnerable": form.get("vulnerable") == "on",
              "deals": field_number(form, "deals", "Random deals", 1, 1_000_000, default=DEALS),
              "seed": field_number(form, "seed", "Seed", 0, 2**128 - 1), "constraints": {}, "fixed": fixed}
    return JobSpec("cardlab.web.pages.dd:compute_makes", kwargs,
                   f"{' or '.join(contracts)} over {kwargs['deals']:,} random deals")


PAGE = Page(
    slug="makes", title="Which contract?",
    summary="Your two hands and the contracts to compare (3NT or 4S): how often each makes over random "
            "deals of the other two hands, double dummy, and the IMPs and matchpoints of one over the other.",
    template="makes.html", prepare=prepare,
    defaults={"north_cards": "AK32.K54.A32.K32", "south_cards": "QJ54.A32.K54.A54", "contracts": "3NT, 4S",
              "by": "S", "deals": str(DEALS)},
)
