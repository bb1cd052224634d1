/**
 * Billing configurations: create, PATCH to a new version (README "Configuration versions"), the
 * versions and a property's list. The route schemas check each term; the rules between terms,
 * which a PATCH can only break once merged with the current version, are checked here.
 */
import { badRequest, notFound, unprocessable } from '../../platform/http/errors';
import { offsetOf, toPage, type PageQuery } from '../../platform/http/pagination';
import type { UtilityType } from '../bills/utility-types';
import { presentConfig } from './presenters';
import { violatesOneActiveConfig, type BillingConfigRow, type NewBillingConfig, type TenantBillingRepository } from './repository';
import type { CreateConfigInput, PatchConfigInput } from './schemas';
import { configResponse, type ConfigResponse } from './schemas.response';
import type { TenantBillingDeps } from './service';

/** The terms of a configuration as the API names them (a created one, or a current one with a PATCH applied). */
type ConfigTerms = Omit<ConfigResponse, 'id' | 'property_id' | 'version' | 'created_at' | 'updated_at'>;

/** The rules between terms, for a create and for the result of a PATCH alike: 422 naming the field. */
function checkTerms(t: ConfigTerms): void {
  const unbilled = Object.keys(t.methods_by_utility).filter((u) => !t.utility_types.includes(u as UtilityType));
  if (unbilled.length > 0) {
    throw unprocessable(`methods_by_utility names ${unbilled.join(', ')}, which utility_types does not bill`, 'methods_by_utility');
  }
  if (t.max_charge !== null && t.min_charge !== null && t.max_charge < t.min_charge) {
    throw unprocessable('max_charge must not be below min_charge', 'max_charge');
  }
}

/** The configuration's columns from its terms. */
function configValues(t: ConfigTerms): Omit<NewBillingConfig, 'propertyId'> {
  return {
    method: t.method,
    utilityTypes: t.utility_types,
    commonAreaPercent: t.common_area_percent,
    adminFeePercent: t.admin_fee_percent,
    billingDay: t.billing_day,
    isActive: t.is_active,
    vacancyPolicy: t.vacancy_policy,
    rounding: t.rounding,
    sqftWeightPercent: t.sqft_weight_percent,
    methodsByUtility: t.methods_by_utility as Record<string, string>,
    occupantFactors: t.occupant_factors,
    maxCharge: t.max_charge,
    minCharge: t.min_charge,
    billingFee: t.billing_fee,
  };
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function createConfigOperations(deps: TenantBillingDeps, repo: TenantBillingRepository) {
  async function requireOwnedConfig(ownerId: string, id: string): Promise<BillingConfigRow> {
    const row = await repo.findOwnedConfig(ownerId, id);
    if (!row) throw notFound('Billing config not found');
    return row;
  }

  const oneActive = <T>(write: Promise<T>): Promise<T> =>
    write.catch((err: unknown) => {
      if (violatesOneActiveConfig(err)) throw badRequest('Active billing config already exists for this property');
      throw err;
    });

  return {
    async createConfig(ownerId: string, input: CreateConfigInput) {
      await deps.properties.requireOwned(ownerId, input.property_id);
      const { property_id: propertyId, ...terms } = input;
      checkTerms(terms);
      const row = await oneActive(repo.insertConfig({ propertyId, ...configValues(terms) }, deps.now(), presentConfig));
      return presentConfig(row);
    },

    /**
     * A new version of the configuration with the fields sent changed (README "Configuration
     * versions"); unchanged terms answer the current version as it is. 404 for another owner's.
     */
    async patchConfig(ownerId: string, id: string, patch: PatchConfigInput) {
      const row = await requireOwnedConfig(ownerId, id);
      const { id: _id, property_id: _p, version: _v, created_at: _c, updated_at: _u, ...current } = presentConfig(row);
      const next: ConfigTerms = { ...current };
      for (const [key, value] of Object.entries(patch)) if (value !== undefined) (next as Record<string, unknown>)[key] = value;
      checkTerms(next);
      if (sameJson(next, current)) return presentConfig(row);
      const updated = await oneActive(repo.updateConfig(id, configValues(next), deps.now(), presentConfig));
      return presentConfig(updated);
    },

    /** A page of a configuration's versions, newest first (a configuration has a few: paged in memory). */
    async configVersions(ownerId: string, id: string, q: PageQuery) {
      await requireOwnedConfig(ownerId, id);
      // Stored as jsonb, which orders keys its own way: answered in the configuration's key order.
      const keys = Object.keys(configResponse.shape) as Array<keyof ConfigResponse>;
      const all = await repo.configVersions(id);
      const page = all.slice(offsetOf(q), offsetOf(q) + q.per_page);
      return toPage(
        page.map((terms) => Object.fromEntries(keys.map((k) => [k, terms[k]])) as ConfigResponse),
        all.length,
        q,
      );
    },

    async listConfigs(ownerId: string, propertyId: string) {
      await deps.properties.requireOwned(ownerId, propertyId);
      return (await repo.listConfigs(propertyId)).map(presentConfig);
    },
  };
}
