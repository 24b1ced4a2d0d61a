// Types for the layer rule's tables, which scripts read (the picture in ARCHITECTURE.md is drawn from them).
export declare const ELEMENTS: ReadonlyArray<{ type: string; pattern: string; capture?: string[]; partialMatch: boolean }>;
export declare const ALLOWED: Readonly<Record<string, readonly string[]>>;
export declare const layerConfigs: unknown[];
export declare const NODE_BUILTINS: string[];
