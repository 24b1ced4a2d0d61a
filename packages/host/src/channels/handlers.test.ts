/**
 * The handler map is checked twice. At compile time (`npm run typecheck`, `tsc -b`: tsc covers test
 * files): each `@ts-expect-error` below must meet the error it names, or tsc fails with "Unused
 * '@ts-expect-error' directive" — so if the map's type stopped requiring every channel, the build would
 * say so. At run time: the map the host is built with holds a handler for every channel and no other.
 */
import { describe, expect, it } from 'vitest';
import { INVOKE_CHANNELS, ok, type InvokeMap } from '@glassbox/contract';
import type { HostContext } from './context';
import type { ChannelHandlers, HandlersOf } from './handlers';
import { channelHandlers } from './index';

/** The contract as it would be with one more channel. */
type Grown = InvokeMap & { 'session:rename': { args: { path: string; title: string }; result: { path: string } } };

/** Building the map must not touch the host: handlers read it when a request comes. */
const untouched = new Proxy({} as HostContext, {
  get(_target, key) {
    throw new Error(`the handler map read host.${String(key)} while it was being built`);
  },
});

describe('the host handler map', () => {
  const handlers = channelHandlers(untouched);

  it('holds a handler for every channel of the contract, and nothing else', () => {
    expect(Object.keys(handlers).sort()).toEqual([...INVOKE_CHANNELS].sort());
    for (const channel of INVOKE_CHANNELS) expect(typeof handlers[channel]).toBe('function');
  });

  it('does not compile without a handler for each channel, or with a handler of the wrong type', () => {
    const { 'repo:map': _dropped, ...withoutOne } = handlers;
    // @ts-expect-error Property ''repo:map'' is missing: a map that lacks a channel is refused.
    const lacking: ChannelHandlers = withoutOne;
    // @ts-expect-error Property ''session:rename'' is missing: a channel added to the contract needs a handler.
    const grown: HandlersOf<Grown> = handlers;
    // @ts-expect-error 'host:info' must answer HostInfo, not what job:cancel answers.
    const mistyped: ChannelHandlers = { ...handlers, 'host:info': async () => ok({ cancelled: true }) };
    // The values themselves are ordinary maps: only their types are refused.
    expect(Object.keys(lacking)).toHaveLength(INVOKE_CHANNELS.length - 1);
    expect(grown).toBe(handlers);
    expect(Object.keys(mistyped)).toHaveLength(INVOKE_CHANNELS.length);
  });
});
