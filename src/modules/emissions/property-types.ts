/**
 * ENERGY STAR Portfolio Manager property types, spelled exactly as EPA's Portfolio Manager names
 * them: what Energize Denver, Boston's BERDO 2.0 and (from calendar year 2026) New York City's
 * Department of Buildings set their numbers on. Pure data (README "Property uses").
 */

/** Where the list was read, on 2026-11-28. */
export const PROPERTY_TYPES_SOURCE =
  "EPA ENERGY STAR Portfolio Manager web services XML schema, simple type primaryFunctionType (the 87 property types a property's " +
  "primary function and property uses take), read in a public repository's copy generated from EPA's schema (package " +
  'org.portfoliomanager.entities); EPA\'s "U.S. Property Types, Definitions, and Use Details" (May 2020) describes the same "more ' +
  'than 80 property types" and their gross floor area';

export const PROPERTY_TYPES = [
  'Adult Education',
  'Ambulatory Surgical Center',
  'Aquarium',
  'Automobile Dealership',
  'Bank Branch',
  'Bar/Nightclub',
  'Barracks',
  'Bowling Alley',
  'Casino',
  'College/University',
  'Convenience Store with Gas Station',
  'Convenience Store without Gas Station',
  'Convention Center',
  'Courthouse',
  'Data Center',
  'Distribution Center',
  'Drinking Water Treatment & Distribution',
  'Enclosed Mall',
  'Energy/Power Station',
  'Fast Food Restaurant',
  'Financial Office',
  'Fire Station',
  'Fitness Center/Health Club/Gym',
  'Food Sales',
  'Food Service',
  'Hospital (General Medical & Surgical)',
  'Hotel',
  'Ice/Curling Rink',
  'Indoor Arena',
  'K-12 School',
  'Laboratory',
  'Library',
  'Lifestyle Center',
  'Mailing Center/Post Office',
  'Manufacturing/Industrial Plant',
  'Medical Office',
  'Mixed Use Property',
  'Movie Theater',
  'Multifamily Housing',
  'Museum',
  'Non-Refrigerated Warehouse',
  'Office',
  'Other - Education',
  'Other - Entertainment/Public Assembly',
  'Other - Lodging/Residential',
  'Other - Mall',
  'Other - Public Services',
  'Other - Recreation',
  'Other - Restaurant/Bar',
  'Other - Services',
  'Other - Stadium',
  'Other - Technology/Science',
  'Other - Utility',
  'Other',
  'Other/Specialty Hospital',
  'Outpatient Rehabilitation/Physical Therapy',
  'Parking',
  'Performing Arts',
  'Personal Services (Health/Beauty, Dry Cleaning, etc)',
  'Police Station',
  'Pre-school/Daycare',
  'Prison/Incarceration',
  'Race Track',
  'Refrigerated Warehouse',
  'Repair Services (Vehicle, Shoe, Locksmith, etc)',
  'Residence Hall/Dormitory',
  'Residential Care Facility',
  'Restaurant',
  'Retail Store',
  'Roller Rink',
  'Self-Storage Facility',
  'Senior Care Community',
  'Single Family Home',
  'Social/Meeting Hall',
  'Stadium (Closed)',
  'Stadium (Open)',
  'Strip Mall',
  'Supermarket/Grocery Store',
  'Swimming Pool',
  'Transportation Terminal/Station',
  'Urgent Care/Clinic/Other Outpatient',
  'Veterinary Office',
  'Vocational School',
  'Wastewater Treatment Plant',
  'Wholesale Club/Supercenter',
  'Worship Facility',
  'Zoo',
] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];

/** A property's gross floor area of one Portfolio Manager property type. */
export interface PropertyUseArea {
  type: PropertyType;
  sqft: number;
}
