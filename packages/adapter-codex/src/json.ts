// The JSON reading helpers are shared by every adapter (core).
export { isObject, num, parseObject, str, type Json, type JsonObject } from '@glassbox/core';
