// Type declarations of the package hclvm (docs/node.md).

/** An HCL value as JavaScript: boolean, number (bigint for integers beyond
 * 2^53), string, null, arrays, plain objects, Set, Unknown. */
export type HclValue = any;

/** A value not known yet, of the HCL type written `type`. */
export declare class Unknown {
  constructor(type?: string);
  type: string;
}

/** An error of HCL: the message is the CLI's text; `diagnostics` the
 * document of `hcldec --diags=json`. */
export interface HclError extends Error {
  diagnostics?: unknown;
}

/** @cdktf/hcl2json's parse (same signature, same document). */
export declare function parse(filename: string, contents: string): Promise<Record<string, any>>;
/** @cdktf/hcl2json's convertFiles: *.tf of the directory as one file, *.tf.json merged in. */
export declare function convertFiles(workingDirectory: string): Promise<Record<string, any>>;
export declare function parseSync(filename: string, contents: string): Record<string, any>;

export declare class Expression {
  constructor(text: string, filename?: string);
  /** The value; throws an HclError when evaluation fails. */
  evaluate(vars?: Record<string, HclValue>): HclValue;
  /** The traversals the expression reads, as text ("var.x", "local.m[\"k\"]"). */
  variables(): string[];
}

export declare function compile(text: string, filename?: string): Expression;

export interface ModuleEvaluation {
  variables: Record<string, HclValue>;
  locals: Record<string, HclValue>;
  outputs: Record<string, HclValue>;
}

export declare function evaluateModule(dir: string, vars?: Record<string, HclValue>): Promise<ModuleEvaluation>;

/** A module directory loaded once (loadModule). */
export declare class Module {
  readonly path: string;
  /** Evaluates the module; with `previous`, reusing its unchanged work. */
  evaluate(vars?: Record<string, HclValue>, options?: {previous?: ModuleEvaluation}): Promise<ModuleEvaluation>;
}

export declare function loadModule(dir: string): Promise<Module>;

export declare const version: string;
