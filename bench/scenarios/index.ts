import type { Scenario } from '../types';
import { accountScenarios } from './accounts';
import { tariffScenarios } from './tariffs';
import { calculateScenarios } from './calculate';
import { propertyScenarios } from './properties';

/** Every benchmark, in issue order. */
export const scenarios: Scenario[] = [...accountScenarios, ...tariffScenarios, ...calculateScenarios, ...propertyScenarios];
