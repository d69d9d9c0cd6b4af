/**
 * Imports the default export of an ESM package that ships no type declarations (the echogarden WASM builds), typed
 * by the caller. A declaration file would be shared project-wide and collide with other areas' declarations.
 */
export async function importUntyped<T>(specifier: string): Promise<T> {
  const module = (await import(specifier)) as { default: T };
  return module.default;
}
