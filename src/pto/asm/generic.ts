/**
 * Reading GenericOp items (ops in PTOAS custom syntax without a grammar of their own): the values
 * they use, their attributes, the types after `:` and the result types after `->`.
 */
import type { Attr, GenericItem, GenericOp, Type, Use } from './ast.ts';

/** Every SSA value the op uses, in text order (nested groups included). */
export function genericUses(op: GenericOp): Use[] {
  const out: Use[] = [];
  const walk = (items: GenericItem[]) => {
    for (const it of items) {
      if (it.k === 'value') out.push(it.use);
      else if (it.k === 'group') walk(it.items);
    }
  };
  walk(op.items);
  return out;
}

/** The top-level values written before the first `:` / `->` / `{` (the operand list). */
export function genericOperands(op: GenericOp): Use[] {
  const out: Use[] = [];
  for (const it of op.items) {
    if (it.k === 'value') out.push(it.use);
    else if (it.k === 'punct' && it.text === ',') continue;
    else break;
  }
  return out;
}

/** The first top-level parenthesised group: `(%a, %b : T, U)` → values and types. */
export function genericParen(op: GenericOp): { uses: Use[]; types: Type[] } | undefined {
  for (const it of op.items) {
    if (it.k === 'group' && it.open === '(') {
      const uses: Use[] = [];
      const types: Type[] = [];
      for (const x of it.items) {
        if (x.k === 'value') uses.push(x.use);
        else if (x.k === 'type') types.push(x.type);
      }
      return { uses, types };
    }
  }
  return undefined;
}

/** Types after the top-level `:` (up to `->`). */
export function genericTypes(op: GenericOp): Type[] {
  const out: Type[] = [];
  let on = false;
  for (const it of op.items) {
    if (it.k === 'punct' && it.text === ':') on = true;
    else if (it.k === 'punct' && it.text === '->') break;
    else if (on && it.k === 'type') out.push(it.type);
  }
  return out;
}

/** Result types after the top-level `->`. */
export function genericResultTypes(op: GenericOp): Type[] {
  const out: Type[] = [];
  let on = false;
  for (const it of op.items) {
    if (it.k === 'punct' && it.text === '->') on = true;
    else if (on && it.k === 'type') out.push(it.type);
    else if (on && it.k === 'group' && it.open === '(') {
      for (const x of it.items) if (x.k === 'type') out.push(x.type);
    }
  }
  return out;
}

/** A named attribute from the op's top-level `{…}` dictionaries. */
export function genericAttr(op: GenericOp, name: string): Attr | undefined {
  for (const it of op.items) {
    if (it.k === 'dict') {
      const a = it.attrs.find((x) => x.name === name);
      if (a) return a.value;
    }
  }
  return undefined;
}

/** The items inside the first top-level `[…]` group (sync-style argument lists). */
export function genericBracket(op: GenericOp): GenericItem[] | undefined {
  for (const it of op.items) if (it.k === 'group' && it.open === '[') return it.items;
  return undefined;
}

/**
 * Result types the op's format implies when it writes none after `->`: `eventid_array_get` is an
 * index, `memref.reinterpret_cast … : T to U` a U.
 */
export function genericImpliedResults(op: GenericOp): Type[] {
  if (op.name === 'pto.eventid_array_get') return [{ kind: 'scalar', name: 'index' }];
  if (op.name === 'memref.reinterpret_cast') {
    let afterTo = false;
    let seenColon = false;
    for (const it of op.items) {
      if (it.k === 'punct' && it.text === ':') seenColon = true;
      else if (seenColon && it.k === 'word' && it.text === 'to') afterTo = true;
      else if (afterTo && it.k === 'type') return [it.type];
    }
  }
  return [];
}
