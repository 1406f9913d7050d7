'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { applyDiscount, cartTotal, lineTotal } = require('../src/cart');
const { formatPrice } = require('../src/money');

const cart = [
  { name: 'notebook', price: 450, quantity: 2 },
  { name: 'pen', price: 125, quantity: 4 },
];

test('a line costs its price times its quantity', () => {
  assert.equal(lineTotal(cart[0]), 900);
});

test('a cart without a discount is the sum of its lines', () => {
  assert.equal(cartTotal(cart), 1400);
});

test('a 10% discount takes a tenth off the total', () => {
  assert.equal(cartTotal(cart, 10), 1260);
});

test('a discount rounds to whole cents', () => {
  assert.equal(applyDiscount(999, 15), 849);
});

test('a discount over 100% is refused', () => {
  assert.throws(() => applyDiscount(1000, 120), RangeError);
});

test('prices print as dollars', () => {
  assert.equal(formatPrice(1260), '$12.60');
});
