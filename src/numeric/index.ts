/**
 * axsim's exact numeric formats: bit casts, small floating-point formats with every rounding mode,
 * NaN policy, sign-magnitude integers and integer helpers. Everything works on raw bit patterns
 * held in unsigned integers; see docs/numeric.md.
 */
export * from './bits.ts';
export * from './bulk.ts';
export * from './formats.ts';
export * from './int.ts';
export * from './minifloat.ts';
export * from './nan.ts';
export * from './signmag.ts';
export * from './widen.ts';
