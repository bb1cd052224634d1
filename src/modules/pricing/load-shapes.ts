import fs from 'node:fs';
import path from 'node:path';
import { readOncePerProcess } from '../utilities/reference';
import type { LoadShapeSet } from './engine';

export const LOAD_SHAPES_FILE = 'load-shapes.json';

/** The bundled typical load shapes (data/reference/load-shapes.json), read once per process. */
export const bundledLoadShapes = readOncePerProcess(readLoadShapes);

function readLoadShapes(dir: string): LoadShapeSet {
  const data = JSON.parse(fs.readFileSync(path.join(dir, LOAD_SHAPES_FILE), 'utf8')) as LoadShapeSet;
  if (!data || typeof data.defaults !== 'object' || typeof data.shapes !== 'object') {
    throw new Error(`${LOAD_SHAPES_FILE} has no defaults/shapes`);
  }
  return data;
}
