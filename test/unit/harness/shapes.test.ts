// The shape finder of the copy-paste check: the same code with other names is a copy; tables,
// imports, comments and idioms are not.
import {describe, expect, test} from 'vitest';
import {findShapePairs, shapesOf} from '../../harness/shapes.js';

const body = (name: string, text: string) => `
export async function ${name}(store: Store, id: string): Promise<number> {
  const record = await store.read(id);
  if (record.state === '${text}') throw new Error('${text} ' + id);
  const seen = record.events.filter((e) => e.at > 10);
  for (const e of seen) await store.append(id, e);
  return seen.length + 1;
}
`;

describe('shapesOf', () => {
  test('names, strings and numbers fold; keywords and punctuation stay; comments, imports and punctuation alone pass over', () => {
    expect(shapesOf("const a = foo('x', 12); // note")).toEqual(['const I=I(S,N);']);
    expect(shapesOf('import {a} from "./a.js";\n}\n/* a\n b */ return b;')).toEqual([
      undefined,
      undefined,
      undefined,
      'return I;',
    ]);
    expect(shapesOf('import {\n  a,\n  b,\n} from "./a.js";\nx();')).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      'I();',
    ]);
  });
});

describe('findShapePairs', () => {
  test('the same code with other names, strings and numbers is a pair', () => {
    const pairs = findShapePairs([
      {path: 'a.ts', text: body('readA', 'gone')},
      {path: 'b.ts', text: body('readB', 'lost')},
    ]);
    expect(pairs).toHaveLength(1);
    expect(pairs[0]).toMatchObject({a: {path: 'a.ts', from: 2}, b: {path: 'b.ts', from: 2}});
  });

  test('code of another shape is not', () => {
    const other = body('readB', 'lost').replace('for (const e of seen)', 'if (seen.length > 0)');
    expect(
      findShapePairs([
        {path: 'a.ts', text: body('readA', 'x')},
        {path: 'b.ts', text: other},
      ]),
    ).toEqual([]);
  });

  test('rows of a table, and an idiom in more places than maxPlaces, are not copies', () => {
    const table = (n: string) =>
      `export const ${n} = {\n${['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((k) => `  ${k}: {type: 'string', describe: '${k}${n}'},`).join('\n')}\n};`;
    expect(
      findShapePairs([
        {path: 'a.ts', text: table('A')},
        {path: 'b.ts', text: table('B')},
      ]),
    ).toEqual([]);
    const files = ['a', 'b', 'c'].map((n) => ({path: `${n}.ts`, text: body(n, n)}));
    expect(findShapePairs(files, {maxPlaces: 2})).toEqual([]);
    expect(findShapePairs(files)).toHaveLength(3);
  });

  test('two places that overlap in one file are one place', () => {
    const repeated = Array.from({length: 12}, (_, i) => `  total += step(${i});`).join('\n');
    expect(findShapePairs([{path: 'a.ts', text: repeated}])).toHaveLength(1);
    expect(findShapePairs([{path: 'a.ts', text: repeated}], {minLines: 6})[0]).toMatchObject({
      a: {from: 1},
      b: {from: 7},
    });
  });
});
