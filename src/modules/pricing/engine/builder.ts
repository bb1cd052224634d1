import type { BillLineItem, LineItemCategory } from './types';

/** Collects line items and keeps each category's sum in integer cents. */
export class BillBuilder {
  readonly items: BillLineItem[] = [];
  readonly assumptions: string[] = [];
  energyCents = 0;
  demandCents = 0;
  fixedCents = 0;
  riderCents = 0;

  add(category: LineItemCategory, name: string, cents: number): void {
    this.items.push({ category, name, amount: cents / 100 });
    if (category === 'energy') this.energyCents += cents;
    else if (category === 'demand') this.demandCents += cents;
    else if (category === 'fixed') this.fixedCents += cents;
    else this.riderCents += cents;
  }

  totalCents(): number {
    return this.energyCents + this.demandCents + this.fixedCents + this.riderCents;
  }
}
