/**
 * Canonical printer for PTO-AS. One op per line, two-space indentation per region, single spaces
 * around `=` and after commas, types always in their canonical spelling (the ten-key tile_buf with
 * `?` for dynamic valid dims, `!pto.tile<16x16xf32>`), so `parse(print(m))` equals `m` up to
 * positions and the short-spelling normalisation.
 */
import type {
  AffineExpr,
  Attr,
  Func,
  GenericItem,
  Module,
  NamedAttr,
  Op,
  Operand,
  Type,
  Use,
} from './ast.ts';

/** Affine expressions print with parentheses around every nested binary expression. */
export function printAffine(e: AffineExpr, top = true): string {
  switch (e.kind) {
    case 'const':
      return String(e.value);
    case 'dim':
      return `d${e.index}`;
    case 'sym':
      return `s${e.index}`;
    case 'neg':
      return `-${printAffine(e.arg, false)}`;
    case 'bin': {
      const s = `${printAffine(e.lhs, false)} ${e.op} ${printAffine(e.rhs, false)}`;
      return top ? s : `(${s})`;
    }
  }
}

export function printType(t: Type): string {
  switch (t.kind) {
    case 'scalar':
      return t.name;
    case 'tile':
      return `!pto.tile<${t.shape.map((d) => `${d}x`).join('')}${t.elem.name}>`;
    case 'tile_buf': {
      const v = (n: number) => (n < 0 ? '?' : String(n));
      return (
        `!pto.tile_buf<loc=${t.loc}, dtype=${t.dtype.name}, rows=${t.rows}, cols=${t.cols}, ` +
        `v_row=${v(t.vRow)}, v_col=${v(t.vCol)}, blayout=${t.blayout}, slayout=${t.slayout}, ` +
        `fractal=${t.fractal}, pad=${t.pad}${t.compact ? `, compact=${t.compact}` : ''}>`
      );
    }
    case 'ptr':
      return `!pto.ptr<${t.elem.name}>`;
    case 'other':
      return t.text;
    case 'vector':
      return `vector<${t.shape.map((d) => `${d}x`).join('')}${t.elem.name}>`;
    case 'tensor_view':
    case 'partition_tensor_view':
      return `!pto.${t.kind}<${t.shape.map((d) => `${d < 0 ? '?' : d}x`).join('')}${t.elem.name}>`;
    case 'memref': {
      const dyn = (d: number) => (d < 0 ? '?' : String(d));
      const layout = t.layout
        ? `, strided<[${t.layout.strides.map(dyn).join(', ')}], offset: ${dyn(t.layout.offset)}>`
        : '';
      return `memref<${t.shape.map((d) => `${dyn(d)}x`).join('')}${t.elem.name}${layout}${
        t.space ? `, #pto.address_space<${t.space}>` : ''
      }>`;
    }
  }
}

function quote(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t')}"`;
}

export function printAttr(a: Attr): string {
  switch (a.kind) {
    case 'int':
      return a.value.toString();
    case 'float':
      return a.text;
    case 'string':
      return quote(a.value);
    case 'bool':
      return a.value ? 'true' : 'false';
    case 'unit':
      return 'unit';
    case 'enum':
      if (a.ns === '') return `<${a.words.join(', ')}>`;
      return a.ns === 'pto' ? `#pto<${a.words.join(' ')}>` : `#${a.ns}<${a.words.join(', ')}>`;
    case 'word':
      return a.value;
    case 'type':
      return printType(a.type);
    case 'typed':
      return `${printAttr(a.value)} : ${printType(a.type)}`;
    case 'symbol':
      return `@${a.name}`;
    case 'raw':
      return a.text;
  }
}

function attrDict(attrs: NamedAttr[]): string {
  return `{${attrs
    .map((a) => {
      const name = /^[A-Za-z_][\w.$]*$/.test(a.name) ? a.name : quote(a.name);
      return a.value.kind === 'unit' ? name : `${name} = ${printAttr(a.value)}`;
    })
    .join(', ')}}`;
}

const v = (u: Use) => `%${u.name}`;
const vs = (us: Use[]) => us.map(v).join(', ');
const operand = (o: Operand) => (o.kind === 'value' ? v(o.use) : printAttr(o.value));
const typesParen = (ts: Type[]) =>
  ts.length === 1 ? printType(ts[0]!) : `(${ts.map(printType).join(', ')})`;

/** Generic-syntax items back to text (spaces as PTOAS prints them). */
function printItems(items: GenericItem[]): string {
  let s = '';
  for (const it of items) {
    let piece: string;
    switch (it.k) {
      case 'value':
        piece = `%${it.use.name}`;
        break;
      case 'attr':
        piece = printAttr(it.attr);
        break;
      case 'dict':
        piece = attrDict(it.attrs);
        break;
      case 'type':
        piece = printType(it.type);
        break;
      case 'punct':
      case 'word':
        piece = it.text;
        break;
      case 'group': {
        const close = it.open === '(' ? ')' : it.open === '[' ? ']' : '>';
        piece = `${it.open}${printItems(it.items)}${close}`;
        break;
      }
    }
    const glue = it.k === 'punct' && it.text === ',' ? '' : ' ';
    s += s === '' ? piece : `${glue}${piece}`;
  }
  return s;
}

function printOp(op: Op, indent: string, out: string[]): void {
  const res =
    op.resultPack !== undefined
      ? `%${op.resultPack}:${op.results.length} = `
      : op.results.length > 0
        ? `${vs(op.results)} = `
        : '';
  const line = (s: string) => out.push(`${indent}${res}${s}`);
  const region = (body: Op[]) => {
    for (const o of body) printOp(o, `${indent}  `, out);
  };
  switch (op.kind) {
    case 'generic':
      line(`${op.name}${op.items.length ? ` ${printItems(op.items)}` : ''}`);
      return;
    case 'func.call':
      line(
        `${op.spelling} @${op.callee}(${vs(op.args)}) : (${op.argTypes.map(printType).join(', ')}) -> ${
          op.resultTypes.length === 1
            ? printType(op.resultTypes[0]!)
            : `(${op.resultTypes.map(printType).join(', ')})`
        }`,
      );
      return;
    case 'dps': {
      const ins =
        op.ins.length === 0
          ? ''
          : `${vs(op.ins.map((i) => i.use))}${op.insAttrs ? `${op.name === 'pto.tgather' ? ',' : ''} ${attrDict(op.insAttrs)}` : ''} : ${op.ins
              .map((i) => printType(i.type))
              .join(', ')}`;
      const outs = `${vs(op.outs.map((o) => o.use))} : ${op.outs.map((o) => printType(o.type)).join(', ')}`;
      line(
        `${op.name} ins(${ins})${op.outs.length ? ` outs(${outs})` : ''}${op.attrs ? ` ${attrDict(op.attrs)}` : ''}${
          op.resultTypes.length ? ` -> ${typesParen(op.resultTypes)}` : ''
        }`,
      );
      return;
    }
    case 'ssa':
      line(
        `${op.name} ${op.operands.map(operand).join(', ')}${op.attrs ? ` ${attrDict(op.attrs)}` : ''} : (${op.operandTypes
          .map(printType)
          .join(', ')}) -> ${printType(op.resultType)}`,
      );
      return;
    case 'asm':
      line(
        `${op.prefixed ? 'pto.' : ''}${op.mnemonic} ${op.operands.map(operand).join(', ')}${
          op.type ? ` : ${printType(op.type)}` : ''
        }${op.hashAttrs
          .map((a) => ` #${a.name}=${a.value.kind === 'string' ? quote(a.value.value) : printAttr(a.value)}`)
          .join('')}`,
      );
      return;
    case 'arith.constant':
      line(
        op.value.kind === 'bool' && op.type.kind === 'scalar' && op.type.name === 'i1'
          ? `arith.constant ${printAttr(op.value)}`
          : `arith.constant ${printAttr(op.value)} : ${printType(op.type)}`,
      );
      return;
    case 'arith.binary':
      line(`${op.name} ${v(op.lhs)}, ${v(op.rhs)} : ${printType(op.type)}`);
      return;
    case 'affine.apply': {
      const dims = Array.from({ length: op.dimCount }, (_, i) => `d${i}`).join(', ');
      const syms = op.symCount
        ? `[${Array.from({ length: op.symCount }, (_, i) => `s${i}`).join(', ')}]`
        : '';
      line(
        `affine.apply affine_map<(${dims})${syms} -> (${printAffine(op.expr)})>(${vs(op.dims)})${
          op.symCount || op.syms.length ? `[${vs(op.syms)}]` : ''
        }`,
      );
      return;
    }
    case 'arith.cast':
      line(`${op.name} ${v(op.operand)} : ${printType(op.from)} to ${printType(op.to)}`);
      return;
    case 'arith.cmp':
      line(`${op.name} ${op.predicate}, ${v(op.lhs)}, ${v(op.rhs)} : ${printType(op.type)}`);
      return;
    case 'arith.select':
      line(`arith.select ${v(op.cond)}, ${v(op.a)}, ${v(op.b)} : ${printType(op.type)}`);
      return;
    case 'scf.for': {
      const iter = op.iterArgs.length
        ? ` iter_args(${op.iterArgs.map((a) => `${v(a.arg)} = ${v(a.init)}`).join(', ')}) -> (${op.iterTypes
            .map(printType)
            .join(', ')})`
        : '';
      line(`scf.for ${v(op.iv)} = ${v(op.lb)} to ${v(op.ub)} step ${v(op.step)}${iter} {`);
      region(op.body);
      out.push(`${indent}}`);
      return;
    }
    case 'scf.if':
      line(
        `scf.if ${v(op.cond)}${op.resultTypes.length ? ` -> (${op.resultTypes.map(printType).join(', ')})` : ''} {`,
      );
      region(op.thenOps);
      if (op.elseOps) {
        out.push(`${indent}} else {`);
        region(op.elseOps);
      }
      out.push(`${indent}}`);
      return;
    case 'scf.while': {
      const inits = op.inits.map((a) => `${v(a.arg)} = ${v(a.init)}`).join(', ');
      line(
        `scf.while (${inits}) : (${op.argTypes.map(printType).join(', ')}) -> (${op.resultTypes.map(printType).join(', ')}) {`,
      );
      region(op.before);
      out.push(`${indent}} do {`);
      if (op.afterLabel !== undefined) {
        const args = op.afterArgs.map((a) => `%${a.use.name}: ${printType(a.type)}`).join(', ');
        out.push(`${indent}^${op.afterLabel}${op.afterArgs.length ? `(${args})` : ''}:`);
      }
      region(op.after);
      out.push(`${indent}}`);
      return;
    }
    case 'scf.condition':
      line(
        `scf.condition(${v(op.cond)})${op.values.length ? ` ${vs(op.values)} : ${op.types.map(printType).join(', ')}` : ''}`,
      );
      return;
    case 'scf.yield':
      line(
        op.values.length ? `scf.yield ${vs(op.values)} : ${op.types.map(printType).join(', ')}` : 'scf.yield',
      );
      return;
    case 'return':
      line(
        op.values.length
          ? `${op.spelling} ${vs(op.values)} : ${op.types.map(printType).join(', ')}`
          : op.spelling,
      );
      return;
    case 'pto.make_tensor_view':
      line(
        `pto.make_tensor_view ${v(op.ptr)}, shape = [${vs(op.shape)}], strides = [${vs(op.strides)}]${
          op.attrs ? ` ${attrDict(op.attrs)}` : ''
        } : ${printType(op.type)}`,
      );
      return;
    case 'pto.partition_view':
      line(
        `pto.partition_view ${v(op.source)}, offsets = [${vs(op.offsets)}], sizes = [${vs(op.sizes)}] : ${printType(
          op.sourceType,
        )} -> ${printType(op.type)}`,
      );
      return;
    case 'pto.alloc_tile': {
      const parts: string[] = ['pto.alloc_tile'];
      if (op.addr) parts.push(`addr = ${v(op.addr)}`);
      if (op.validRow) parts.push(`valid_row = ${v(op.validRow)}`);
      if (op.validCol) parts.push(`valid_col = ${v(op.validCol)}`);
      line(`${parts.join(' ')} : ${printType(op.type)}`);
      return;
    }
    case 'pto.subset':
      line(
        `pto.subset ${v(op.source)}[${vs(op.offsets)}] sizes [${op.sizes.join(', ')}] : ${printType(op.type)}`,
      );
      return;
    case 'memref.alloc':
      line(`memref.alloc() : ${printType(op.type)}`);
      return;
    case 'memref.subview': {
      const list = (xs: typeof op.offsets) =>
        `[${xs.map((x) => ('use' in x ? v(x.use) : String(x.value))).join(', ')}]`;
      line(
        `memref.subview ${v(op.source)}${list(op.offsets)} ${list(op.sizes)} ${list(op.strides)} : ${printType(
          op.sourceType,
        )} to ${printType(op.type)}`,
      );
      return;
    }
    case 'pto.query':
      line(`${op.name}${op.attrs ? ` ${attrDict(op.attrs)}` : ''}`);
      return;
    case 'pto.treshape':
      line(`pto.treshape ${v(op.source)} : ${printType(op.sourceType)} -> ${printType(op.type)}`);
      return;
    case 'sync':
      line(
        op.angle
          ? `${op.name} <${printAttr(op.args[0]!)}>${op.args
              .slice(1)
              .map((a) => `, ${printAttr(a)}`)
              .join('')}`
          : `${op.name} [${op.args.map(printAttr).join(', ')}]`,
      );
      return;
    case 'section':
      line(`${op.name} {`);
      region(op.body);
      out.push(`${indent}}`);
      return;
  }
}

function printFunc(f: Func, indent: string, out: string[]): void {
  const args = f.args.map((a) => `%${a.use.name}: ${printType(a.type)}`).join(', ');
  const ret = f.hasArrow
    ? ` -> ${f.resultTypes.length === 1 ? printType(f.resultTypes[0]!) : `(${f.resultTypes.map(printType).join(', ')})`}`
    : '';
  const vis = f.visibility ? `${f.visibility} ` : '';
  const fattrs = f.attrs ? ` attributes ${attrDict(f.attrs)}` : '';
  out.push(`${indent}func.func ${vis}@${symbolName(f.name)}(${args})${ret}${fattrs} {`);
  for (const op of f.body) printOp(op, `${indent}  `, out);
  out.push(`${indent}}`);
}

function symbolName(n: string): string {
  return /^[A-Za-z_][\w.$-]*$/.test(n) ? n : quote(n);
}

/** The canonical text of a module (ends with a newline). */
export function printModule(m: Module): string {
  const out: string[] = [];
  if (m.wrapped) {
    const name = m.name === undefined ? '' : ` @${symbolName(m.name)}`;
    out.push(`module${name}${m.attrs ? ` attributes ${attrDict(m.attrs)}` : ''} {`);
    for (const f of m.funcs) printFunc(f, '  ', out);
    out.push('}');
  } else {
    for (const f of m.funcs) printFunc(f, '', out);
  }
  return `${out.join('\n')}\n`;
}
