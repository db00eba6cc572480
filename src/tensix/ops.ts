/**
 * The pre-decoded program format: every instruction word becomes one fixed-size record of small
 * integers in an Int32Array (decode once, execute many). `exec.ts` dispatches on `OP`.
 */

/** Slots of one record. */
export const S = { OP: 0, VD: 1, VC: 2, VB: 3, VA: 4, MOD: 5, IMM: 6, AUX: 7 } as const;
export const STRIDE = 8;

/** Operation ids (dispatch by small integer). */
export const Op = {
  NOP: 0,
  LOAD: 1,
  STORE: 2,
  LOADI: 3,
  LUT: 4,
  LUTFP32: 5,
  MAD: 6,
  MULI: 7,
  ADDI: 8,
  MAD_SLOW: 9,
  DIVP2: 10,
  EXEXP: 11,
  EXMAN: 12,
  IADD: 13,
  SHFT: 14,
  SETCC: 15,
  MOV: 16,
  ABS: 17,
  AND: 18,
  OR: 19,
  XOR: 20,
  NOT: 21,
  LZ: 22,
  SETEXP: 23,
  SETMAN: 24,
  SETSGN: 25,
  PUSHC: 26,
  POPC: 27,
  ENCC: 28,
  COMPC: 29,
  TRANSP: 30,
  STOCHRND: 31,
  CAST: 32,
  CONFIG: 33,
  SWAP: 34,
  SHFT2: 35,
  LE: 36,
  GT: 37,
  MUL24: 38,
  ARECIP: 39,
  TEMPLATE: 40,
  SETRWC: 41,
  INCRWC: 42,
  SETC16: 43,
  LOADMACRO: 44,
  REPLAY: 45,
  RMWCIB: 46,
} as const;
export type OpId = (typeof Op)[keyof typeof Op];
