/**
 * The AST of cfront: C and the C++ subset that kernel headers use. Every node has `at`, the
 * position the user sees (for a token from a macro expansion: the macro's use site).
 */
import type { SrcLoc } from './lex.ts';

/** One component of a qualified name, `name<targs>`. */
export interface NamePart {
  name: string;
  targs?: TArg[];
}

/** A template argument: a type or an expression (decided by the parser). */
export type TArg = { type: TypeSyntax } | { expr: Expr };

/** Types as written; resolved by the evaluator (template parameters are known only then). */
export type TypeSyntax =
  | { kind: 'builtin'; name: string; at: SrcLoc; cv?: CV }
  | { kind: 'named'; parts: NamePart[]; global?: boolean; at: SrcLoc; cv?: CV }
  | { kind: 'ptr'; to: TypeSyntax; at: SrcLoc; cv?: CV }
  | { kind: 'ref'; to: TypeSyntax; rvalue: boolean; at: SrcLoc; cv?: CV }
  | { kind: 'array'; of: TypeSyntax; size?: Expr; at: SrcLoc; cv?: CV }
  | { kind: 'func'; ret: TypeSyntax; params: TypeSyntax[]; at: SrcLoc; cv?: CV }
  | { kind: 'auto'; at: SrcLoc; cv?: CV }
  | { kind: 'decltype'; expr: Expr; at: SrcLoc; cv?: CV }
  /** An inline struct/union/enum definition used as a type (`struct { … } x;`). */
  | { kind: 'record'; def: RecordDecl | EnumDecl; at: SrcLoc; cv?: CV };

export interface CV {
  const?: boolean;
  volatile?: boolean;
}

export type Expr =
  | { kind: 'int'; value: bigint; unsigned: boolean; longs: number; text: string; at: SrcLoc }
  | { kind: 'float'; value: number; single: boolean; text: string; at: SrcLoc }
  | { kind: 'string'; value: string; at: SrcLoc }
  | { kind: 'char'; value: number; at: SrcLoc; prefix?: 'u8' | 'u' | 'U' | 'L' }
  | { kind: 'bool'; value: boolean; at: SrcLoc }
  | { kind: 'nullptr'; at: SrcLoc }
  | { kind: 'this'; at: SrcLoc }
  | { kind: 'name'; parts: NamePart[]; global?: boolean; at: SrcLoc }
  | { kind: 'unary'; op: string; e: Expr; at: SrcLoc }
  | { kind: 'postfix'; op: '++' | '--'; e: Expr; at: SrcLoc }
  | { kind: 'binary'; op: string; a: Expr; b: Expr; at: SrcLoc }
  | { kind: 'assign'; op: string; a: Expr; b: Expr; at: SrcLoc }
  | { kind: 'cond'; c: Expr; a: Expr; b: Expr; at: SrcLoc }
  | { kind: 'comma'; a: Expr; b: Expr; at: SrcLoc }
  | { kind: 'call'; fn: Expr; args: Expr[]; at: SrcLoc; end?: SrcLoc }
  | { kind: 'index'; e: Expr; i: Expr; at: SrcLoc }
  | { kind: 'member'; e: Expr; name: string; arrow: boolean; targs?: TArg[]; at: SrcLoc }
  | {
      kind: 'cast';
      type: TypeSyntax;
      e: Expr;
      how: 'c' | 'static' | 'reinterpret' | 'const' | 'functional' | 'bit';
      at: SrcLoc;
    }
  | { kind: 'sizeof'; type?: TypeSyntax; e?: Expr; align?: boolean; at: SrcLoc }
  /** `{…}` or `T{…}`: items with optional designators (`.a.b = …`, `[2] = …`). */
  | { kind: 'init'; type?: TypeSyntax; items: InitItem[]; at: SrcLoc }
  /** `T(args…)` with T a class type: construction. */
  | { kind: 'construct'; type: TypeSyntax; args: Expr[]; at: SrcLoc }
  | { kind: 'lambda'; params: Param[]; body: Stmt; captureAll: '&' | '=' | ''; at: SrcLoc }
  | { kind: 'builtin'; name: string; targs: TArg[]; args: Expr[]; at: SrcLoc };

export interface InitItem {
  designator?: ({ field: string } | { index: Expr })[];
  value: Expr;
}

export interface Param {
  type: TypeSyntax;
  name?: string;
  default?: Expr;
  at: SrcLoc;
  /** `...` (a C variadic function or a parameter pack). */
  pack?: boolean;
}

export interface VarDecl {
  kind: 'var';
  name: string;
  type: TypeSyntax;
  init?: Expr;
  /** `T x(args)` direct initialisation. */
  ctorArgs?: Expr[];
  static?: boolean;
  constexpr?: boolean;
  extern?: boolean;
  /** `alignas(N)` / `__attribute__((aligned(N)))`. */
  align?: Expr;
  /** A variable template's parameters (`template <typename T> constexpr bool v = …;`). */
  tparams?: TParam[];
  at: SrcLoc;
}

export type Stmt =
  | { kind: 'expr'; e: Expr; at: SrcLoc }
  | { kind: 'decl'; decls: Decl[]; at: SrcLoc }
  | { kind: 'block'; body: Stmt[]; at: SrcLoc; end: SrcLoc }
  | { kind: 'if'; constexpr: boolean; init?: Stmt; c: Expr; then: Stmt; else?: Stmt; at: SrcLoc }
  | { kind: 'for'; init?: Stmt; c?: Expr; step?: Expr; body: Stmt; at: SrcLoc }
  | { kind: 'range-for'; decl: VarDecl; range: Expr; body: Stmt; at: SrcLoc }
  | { kind: 'while'; c: Expr; body: Stmt; at: SrcLoc }
  | { kind: 'do'; body: Stmt; c: Expr; at: SrcLoc }
  | { kind: 'switch'; c: Expr; body: Stmt; at: SrcLoc }
  | { kind: 'case'; value: Expr; hi?: Expr; at: SrcLoc }
  | { kind: 'default'; at: SrcLoc }
  | { kind: 'break'; at: SrcLoc }
  | { kind: 'continue'; at: SrcLoc }
  | { kind: 'return'; e?: Expr; at: SrcLoc }
  | { kind: 'empty'; at: SrcLoc }
  /** A statement the host (ISA emitter) parsed itself: canonical instruction lines, `.word`, … */
  | { kind: 'ext'; data: unknown; at: SrcLoc; body?: Stmt[] };

export interface TParam {
  /** `typename T` / `class T` (type), else a non-type parameter of `type`. */
  isType: boolean;
  name: string;
  type?: TypeSyntax;
  default?: TArg;
  pack?: boolean;
  at: SrcLoc;
}

export interface FuncDecl {
  kind: 'func';
  /** Possibly qualified (`Foo::bar` for a member defined outside its class). */
  parts: NamePart[];
  name: string;
  tparams?: TParam[];
  /** Explicit specialisation `template <> void f<true>(…)`: the given template arguments. */
  specArgs?: TArg[];
  ret: TypeSyntax;
  params: Param[];
  variadic: boolean;
  /** Parsed on first use (so unused functions with unsupported C++ do not stop the file). */
  body?: Stmt;
  bodyToks?: { start: number; end: number };
  /** Constructor member initialisers `: a(x), b{y}`. */
  inits?: { name: string; args: Expr[]; at: SrcLoc }[];
  isStatic?: boolean;
  isConst?: boolean;
  isCtor?: boolean;
  isDtor?: boolean;
  isOperator?: string;
  /** Enclosing namespace path (for name lookup). */
  ns: string[];
  /** The class this is a member of (set by the evaluator). */
  owner?: RecordDecl;
  /**
   * An instance of a function with a parameter pack for one pack size (made by the evaluator): each
   * pack name (the type pack, the function parameter pack) -> the names of its elements.
   */
  packs?: Map<string, string[]>;
  at: SrcLoc;
}

export interface RecordDecl {
  kind: 'record';
  tag: 'struct' | 'class' | 'union';
  name: string;
  tparams?: TParam[];
  specArgs?: TArg[];
  bases: TypeSyntax[];
  members: Decl[];
  /** A forward declaration (`struct S;`). */
  forward: boolean;
  ns: string[];
  at: SrcLoc;
}

export interface EnumDecl {
  kind: 'enum';
  name: string;
  scoped: boolean;
  underlying?: TypeSyntax;
  values: { name: string; value?: Expr; at: SrcLoc }[];
  forward: boolean;
  ns: string[];
  at: SrcLoc;
}

export type Decl =
  | VarDecl
  | FuncDecl
  | RecordDecl
  | EnumDecl
  | { kind: 'namespace'; name: string; decls: Decl[]; at: SrcLoc }
  | { kind: 'alias'; name: string; type: TypeSyntax; tparams?: TParam[]; ns: string[]; at: SrcLoc }
  | { kind: 'using-ns'; parts: NamePart[]; ns: string[]; at: SrcLoc }
  | { kind: 'using-decl'; parts: NamePart[]; ns: string[]; at: SrcLoc }
  | { kind: 'static_assert'; e: Expr; msg?: string; at: SrcLoc }
  /** A top-level statement (script mode: `.sfpu` files are statements at file scope). */
  | { kind: 'stmt'; s: Stmt; at: SrcLoc }
  /** Access specifiers and other things that only matter to a compiler. */
  | { kind: 'nothing'; at: SrcLoc };

export interface TranslationUnit {
  decls: Decl[];
  file: string;
}
