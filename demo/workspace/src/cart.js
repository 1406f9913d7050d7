'use strict';

const { roundCents } = require('./money');

/** The price of one line of the cart, in cents. */
function lineTotal(line) {
  return line.price * line.quantity;
}

/** Takes `percent` percent (0 to 100) off an amount in cents. */
function applyDiscount(amount, percent) {
  if (percent < 0 || percent > 100) {
    throw new RangeError(`a discount is between 0 and 100 percent, not ${percent}`);
  }
  return roundCents(amount - percent);
}

/** The cart's total in cents: every line, then the discount. */
function cartTotal(lines, discountPercent = 0) {
  const subtotal = lines.reduce((sum, line) => sum + lineTotal(line), 0);
  return applyDiscount(subtotal, discountPercent);
}

module.exports = { lineTotal, applyDiscount, cartTotal };
