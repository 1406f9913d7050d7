'use strict';

// Amounts are whole cents, so sums never pick up floating-point dust.

/** Rounds an amount to whole cents, half up. */
function roundCents(amount) {
  return Math.round(amount);
}

/** Formats cents as dollars: 1234 -> "$12.34". */
function formatPrice(cents) {
  const sign = cents < 0 ? '-' : '';
  return `${sign}$${(Math.abs(cents) / 100).toFixed(2)}`;
}

module.exports = { roundCents, formatPrice };
