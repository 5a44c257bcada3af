"""What the validator reads: the inputs named on the command line as units (:mod:`.inputs`), each
read by a source (:mod:`.readers`): local files opened safely, URLs through fsspec (:mod:`.objects`,
:mod:`.storage`, with credentials kept out of output by :mod:`.secrets`), trace roots
(:mod:`.roots`), server-sent events captured or live (:mod:`.sse`, :mod:`.live`), sessions spread
over a Dask cluster (:mod:`.distributed`); with `--protocol auto` (:mod:`.protocol_choice`) and the
hints for inputs that are not traces (:mod:`.hints`)."""
