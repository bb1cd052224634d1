import fs from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';

/** The boundary rule of eslint.config.mjs, run on one import as if it were in `filePath`. */
async function boundaryErrors(filePath: string, importLine: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: process.cwd() });
  const [result] = await eslint.lintText(`${importLine}\nexport const used = imported;\n`, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('module boundaries (eslint.config.mjs)', () => {
  it("refuses another module's tables and repository, at any depth", async () => {
    expect(
      await boundaryErrors('src/modules/meters/lookup.ts', "import { properties as imported } from '../properties/tables';"),
    ).toHaveLength(1);
    expect(
      await boundaryErrors(
        'src/modules/meters/lookup.ts',
        "import { createPropertyRepository as imported } from '../properties/repository';",
      ),
    ).toHaveLength(1);
    expect(
      await boundaryErrors('src/modules/tenant-billing/posting/lookup.ts', "import { pmsUnits as imported } from '../../pms/tables';"),
    ).toHaveLength(1);
    expect(
      await boundaryErrors('src/modules/services-like/lookup.ts', "import { x as imported } from '../analytics/due-diligence.repository';"),
    ).toHaveLength(1);
  });

  it("lets a module use its own files, another's public.ts, and a tables.ts name another's table for a foreign key", async () => {
    expect(
      await boundaryErrors('src/modules/tenant-billing/posting/lookup.ts', "import { rubsPostings as imported } from '../tables';"),
    ).toEqual([]);
    expect(
      await boundaryErrors('src/modules/meters/lookup.ts', "import { propertyView as imported } from '../properties/public';"),
    ).toEqual([]);
    expect(await boundaryErrors('src/modules/meters/tables.ts', "import { properties as imported } from '../properties/tables';")).toEqual(
      [],
    );
  });

  it('holds for every file of every module but the tables.ts files (no allowance left)', async () => {
    const eslint = new ESLint({ cwd: process.cwd() });
    const files = (fs.readdirSync('src/modules', { recursive: true }) as string[])
      .filter((f) => f.endsWith('.ts') && path.basename(f) !== 'tables.ts')
      .map((f) => path.join('src/modules', f));
    const exempt: string[] = [];
    for (const file of files) {
      const config = await eslint.calculateConfigForFile(file);
      const level = config.rules?.['no-restricted-imports']?.[0];
      if (level !== 2 && level !== 'error') exempt.push(file);
    }
    expect(files.length).toBeGreaterThan(100);
    expect(exempt).toEqual([]);
  });
});
