/**
 * The files a model definition's engine opens: every absolute path in its engine configuration (model files, tokens,
 * the support models an ASR definition carries). With object storage these name the installed packages a node must
 * have fetched before it runs the model (ModelManager.fetchPackagesOf).
 */
import { isAbsolute } from 'node:path';
import type { ModelDefinition } from '../engines/model-definition.js';

export function definitionPaths(definition: Pick<ModelDefinition, 'engineConfig'>): string[] {
  const into: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      if (isAbsolute(value)) into.push(value);
    } else if (Array.isArray(value)) for (const item of value) walk(item);
    else if (value && typeof value === 'object') for (const item of Object.values(value)) walk(item);
  };
  walk(definition.engineConfig);
  return into;
}
