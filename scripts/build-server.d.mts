/** Bundles one entry (TypeScript) into one ES module file, the packages named in `external` loaded from node_modules. */
export declare const bundle: (target: { entry: string; out: string; external: string[] }) => Promise<unknown>;
/** The packages an API bundle loads from node_modules. */
export declare const API_EXTERNAL: string[];
