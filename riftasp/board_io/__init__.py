"""Reading boards (JSON, YAML, ASP facts) into the model, rejecting doubtful input, and writing
them back.

docs/board-format.md is the spec. Every failure is a `BoardError` whose text is one line,
`FILE: PATH: message`; nothing is silently dropped or guessed. One module per step:

- reading.py: a file or standard input, within the size limit, as UTF-8 text;
- parsing.py: JSON and YAML syntax; lp_parsing.py: `.lp` facts, as data (never grounded);
- fields.py: the format's parts, keys and kinds, described once (riftasp/schema.py too);
- shape.py / lp_shape.py: parsed data / facts into the model (card_lookup.py: `card` objects);
- references.py: the checks on the model every format shares (ids, players, attachments);
- loading.py: the entry points, joining these; writing.py: the model back into JSON data.
"""

from ..terms import quote
from .errors import BoardError
from .loading import board_from_dict, board_from_facts, load_board, load_board_text
from .writing import board_to_dict

__all__ = [
    "BoardError",
    "board_from_dict",
    "board_from_facts",
    "board_to_dict",
    "load_board",
    "load_board_text",
    "quote",
]
