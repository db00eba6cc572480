/**
 * Verifier rules for the ops axsim reads in generic custom syntax (GenericOp). Each rule follows
 * the op's PTOAS definition (include/PTO/IR/PTOOps.td and its C++ verifier in lib/PTO/IR/PTO.cpp,
 * hw-native-sys/PTOAS); the messages name the op, the rule and the fix.
 */
import type { ErrorCategory } from '../../errors.ts';
import type { GenericOp, Module, Pos, Type } from './ast.ts';
import { genericAttr, genericOperands, genericParen, genericResultTypes, genericTypes } from './generic.ts';
import { printType } from './printer.ts';
import { isIntType, isTileLike } from './types.ts';

export interface GenericHost {
  err(pos: Pos, message: string, hint: string, category?: ErrorCategory): void;
  typeOf(name: string): Type | undefined;
  module: Module;
}

/** Ops whose `-> T` result may be left unbound (none so far). */
export const GENERIC_RESULTS_OPTIONAL = new Set<string>();

const ADDR_SPACES_WITH_SIZES = new Set(['vec', 'mat', 'left', 'right', 'acc', 'bias', 'scaling']);

export function verifyGenericOp(h: GenericHost, op: GenericOp): void {
  const operands = genericOperands(op);
  const types = genericTypes(op);
  const results = genericResultTypes(op);
  const need = (n: number, form: string): boolean => {
    if (operands.length !== n) {
      h.err(op.pos, `${op.name}: expects ${n} operand(s), got ${operands.length}`, `write ${form}`);
      return false;
    }
    return true;
  };
  switch (op.name) {
    case 'pto.set_validshape': {
      // PTOAS SetValidShapeOp: $source, $valid_row, $valid_col : type($source); the source is a
      // tile whose valid_row and valid_col are both dynamic
      if (!need(3, 'pto.set_validshape %tile, %rows, %cols : !pto.tile_buf<…, v_row=?, v_col=?, …>')) return;
      const t = types[0];
      if (!t) {
        h.err(op.pos, 'pto.set_validshape: missing the source type', 'write : !pto.tile_buf<…>');
        return;
      }
      if (t.kind === 'tile_buf' && (t.vRow >= 0 || t.vCol >= 0)) {
        h.err(
          op.pos,
          'pto.set_validshape: the source tile must have dynamic valid_row and valid_col (v_row=?, v_col=?)',
          'allocate the tile with v_row=?, v_col=?',
        );
      } else if (!isTileLike(t)) {
        h.err(
          op.pos,
          `pto.set_validshape: the source must be a tile, found ${printType(t)}`,
          'pass a tile buffer',
        );
      }
      for (const u of operands.slice(1)) {
        const ut = h.typeOf(u.name);
        if (ut && !(ut.kind === 'scalar' && ut.name === 'index')) {
          h.err(
            u.pos,
            `pto.set_validshape: %${u.name} must be an index, found ${printType(ut)}`,
            'use arith.index_cast',
          );
        }
      }
      return;
    }
    case 'pto.tassign': {
      // PTOAS TAssignOp: $tile, $addr : type($tile) -> type($result), addr is i64
      if (!need(2, 'pto.tassign %tile, %addr : T -> T')) return;
      const at = h.typeOf(operands[1]!.name);
      if (at && !(at.kind === 'scalar' && at.name === 'i64')) {
        h.err(
          operands[1]!.pos,
          `pto.tassign: the address must be i64, found ${printType(at)}`,
          'write arith.constant N : i64',
        );
      }
      return;
    }
    case 'pto.reserve_buffer': {
      const name = genericAttr(op, 'name');
      const size = genericAttr(op, 'size');
      const loc = genericAttr(op, 'location');
      if (name?.kind !== 'string') h.err(op.pos, 'pto.reserve_buffer: needs name = "…"', 'add name = "fifo"');
      if (size?.kind !== 'int' || size.value <= 0n)
        h.err(op.pos, 'pto.reserve_buffer: needs a positive size', 'add size = 4096');
      if (
        !(
          loc?.kind === 'enum' &&
          (loc.ns === 'pto.address_space' || loc.ns === '') &&
          ADDR_SPACES_WITH_SIZES.has(loc.words[0] ?? '')
        )
      ) {
        h.err(
          op.pos,
          'pto.reserve_buffer: needs location = #pto.address_space<…> (an on-chip buffer)',
          'add location = #pto.address_space<vec>',
        );
      }
      if (results.length !== 1 || !(results[0]!.kind === 'scalar' && results[0]!.name === 'i32')) {
        h.err(op.pos, 'pto.reserve_buffer: produces one i32 (the buffer address)', 'write … } -> i32');
      }
      return;
    }
    case 'pto.declare_eventid_array':
      if (
        results.length !== 1 ||
        !(results[0]!.kind === 'other' && results[0]!.text.startsWith('!pto.eventid_array<'))
      ) {
        h.err(
          op.pos,
          'pto.declare_eventid_array: produces one !pto.eventid_array<N>',
          'write -> !pto.eventid_array<4>',
        );
      }
      return;
    case 'pto.eventid_array_get':
    case 'pto.eventid_array_set': {
      const arr = operands[0];
      const at = arr ? h.typeOf(arr.name) : undefined;
      if (at && !(at.kind === 'other' && at.text.startsWith('!pto.eventid_array<'))) {
        h.err(
          op.pos,
          `${op.name}: %${arr!.name} is not an event id array`,
          'declare it with pto.declare_eventid_array',
        );
      }
      return;
    }
    case 'pto.tpush':
    case 'pto.tpop':
    case 'pto.tfree': {
      const p = genericParen(op);
      const last = p?.types[p.types.length - 1];
      if (!p || !last || !(last.kind === 'other' && last.text === '!pto.pipe')) {
        h.err(
          op.pos,
          `${op.name}: the last operand must be a !pto.pipe`,
          `write ${op.name}(…, %pipe : …, !pto.pipe)`,
        );
      }
      return;
    }
    case 'pto.addptr': {
      if (!need(2, 'pto.addptr %ptr, %offset : <T> -> <T>')) return;
      const ot = h.typeOf(operands[1]!.name);
      if (ot && !isIntType(ot))
        h.err(op.pos, 'pto.addptr: the offset must be an integer', 'pass an index or integer');
      return;
    }
    default:
      return;
  }
}
