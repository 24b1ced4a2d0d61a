import type { InvokeChannel, InvokeMap, Result } from '@glassbox/contract';

/** A contract's channels: each with its argument and result types (as `InvokeMap` in `@glassbox/contract`). */
type ChannelMap<M> = { [C in keyof M]: { args: unknown; result: unknown } };

/** One handler per channel of a contract: a channel without one, or one of the wrong type, does not compile. */
export type HandlersOf<M extends ChannelMap<M>> = { [C in keyof M]: (args: M[C]['args']) => Promise<Result<M[C]['result']>> };

/**
 * The host's handler map, keyed by the contract's channels. A channel added to the contract is a
 * compile error in `channels/index.ts` until an area module gives it a handler
 * (`handlers.test.ts` shows the compiler refusing a map that lacks one).
 */
export type ChannelHandlers = HandlersOf<InvokeMap>;

/** The handlers of one area module: a name that is not a channel does not compile either. */
export type HandlersFor<C extends InvokeChannel> = Pick<ChannelHandlers, C>;
