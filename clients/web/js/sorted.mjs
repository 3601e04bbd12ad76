// Binary search on sorted arrays: the one the web client's modules share.

/**
 * The first index of `array` whose element `isBefore` does not hold for (the length when it holds
 * for all): `isBefore` must hold for a prefix of the array and for nothing after it, as "less than
 * x" does on an ascending array.
 */
export function partitionIndex(array, isBefore) {
  let low = 0;
  let high = array.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (isBefore(array[middle])) low = middle + 1;
    else high = middle;
  }
  return low;
}
