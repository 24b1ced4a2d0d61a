// Price tables are agent-neutral data (core); each agent's adapter ships its provider's list prices.
export { findPrice, mergePriceTables, usageCost, validatePriceTable, type ModelPrice, type PriceTable } from '@glassbox/core';
