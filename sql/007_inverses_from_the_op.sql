-- A log row's inverse is stored only when reverting needs the data the op was applied to (a
-- removal's place and dependencies, a reorder's former neighbour, a removed entry's
-- assignments). For the other ops (edits, adds, links, moved bookings: 87 % of the rows of
-- `ops/bench commits`) it is the op turned round (`PlanOperation.inverseOfItself`): such rows
-- keep `inverse` NULL and say so here, and readers form it from `op`. A log row was 1,309 bytes on
-- average, 301 of them its inverse (1,024 now); every byte is written by the commit, to the table,
-- its WAL and its new pages. Rows written before keep their inverse (or its absence) as it was.
-- Both statements are instant on a log of any length: the new column's default is not written
-- into the rows, and the check is not run over rows that predate the column (all false).
ALTER TABLE mutations ADD COLUMN inverse_from_op boolean NOT NULL DEFAULT false;
ALTER TABLE mutations ADD CONSTRAINT mutations_inverse_once CHECK (NOT (inverse_from_op AND inverse IS NOT NULL))
    NOT VALID;
