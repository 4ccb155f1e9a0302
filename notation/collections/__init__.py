"""Collections: many records at once, from files of any size, in one process or several.

:mod:`~notation.collections.batch` checks files of records with several processes
(:func:`~notation.collections.batch.check_paths`) on :mod:`~notation.collections.workers`
(work handed to worker processes, results back in order),
:mod:`~notation.collections.cutting` is the one loop that finds where records surely
start (for ``--jobs``, the chunks and an editor's document),
:mod:`~notation.collections.scanning` cuts a file into chunks of records at a glance,
:mod:`~notation.collections.index` finds record N and indexes a file with them,
:mod:`~notation.collections.operations` selects, deduplicates and splits streams of
records, :mod:`~notation.collections.stats` counts results, lengths and openings, and
:mod:`~notation.collections.generate` and :mod:`~notation.collections.referee` make
records from games played by bots.

It may import the core, the formats, the checking modes, the games and the files;
nothing above it (editing, rendering, the apps and the command line).
"""
