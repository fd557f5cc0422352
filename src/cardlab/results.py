"""What every result object shares: ``to_dict()`` gives the data, ``to_json()`` its JSON text.

The names follow the ecosystem (pandas, pydantic, endplay): ``to_dict`` returns plain Python data
ready for :func:`json.dumps` (dicts, lists, numbers, strings), ``to_json`` returns text.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Coin(JsonText):
...     heads: int
...     def to_dict(self):
...         return {"heads": self.heads}
>>> Coin(3).to_dict(), Coin(3).to_json(indent=None)
({'heads': 3}, '{"heads": 3}')

Changed in this release: ``to_json()`` used to return the dict that ``to_dict()`` now gives
(a dict cannot also be the text, so there is no compatibility path; call ``to_dict()``).
"""

from __future__ import annotations

import csv
import io
import json
import math
from typing import Any, Mapping, Sequence

__all__ = ["JsonText", "csv_rows", "json_text"]


def _finite(data: Any) -> Any:
    """``data`` with every NaN or infinite float replaced by None."""
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, dict):
        return {key: _finite(value) for key, value in data.items()}
    if isinstance(data, (list, tuple)):
        return [_finite(value) for value in data]
    return data


def json_text(data: Any, *, indent: int | None = 2) -> str:
    """Strict JSON text of ``data``: a value that is not a number (an average over no deals, an
    interval from one sample) is ``null``, since ``NaN`` is not JSON and strict readers refuse it.

    >>> json_text({"mean": float("nan"), "n": 0}, indent=None)
    '{"mean": null, "n": 0}'
    """
    return json.dumps(_finite(data), indent=indent, allow_nan=False)


def csv_rows(rows: Sequence[Mapping[str, Any]], empty: Sequence[str] = ()) -> str:
    """CSV text of ``rows`` (dicts sharing their keys, which make the header; ``empty`` is the
    header when there is no row), with ``\\n`` line ends.

    >>> csv_rows([{"hand": "AsKs", "wins": True}])
    'hand,wins\\nAsKs,True\\n'
    """
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]) if rows else list(empty), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


class JsonText:
    """Mixin of the result objects: :meth:`to_json` is the JSON text of :meth:`to_dict`."""

    def to_dict(self) -> Any:
        """The result as JSON-ready data (each result object defines it)."""
        raise NotImplementedError

    def to_json(self, *, indent: int | None = 2) -> str:
        """The JSON text of :meth:`to_dict` (indented by ``indent``, no final newline); a value
        that is not a number is ``null``."""
        return json_text(self.to_dict(), indent=indent)
