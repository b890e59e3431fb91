"""Wire formats -> format-neutral events.

``load(path)`` reads one file (plain or gzip), sniffs its format from the content
and returns a :class:`mjaudit.events.GameLog`. ``iter_inputs(paths)`` expands
directories into the log files below them.
"""

from parsers.sources import LOG_SUFFIXES, iter_inputs, load, load_bytes, read_input

__all__ = ["LOG_SUFFIXES", "iter_inputs", "load", "load_bytes", "read_input"]
