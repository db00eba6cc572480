/** Tensor file formats: NumPy .npy and JSON arrays. */
export * from './json.ts';
export * from './npy.ts';
