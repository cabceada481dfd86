import { K, N, R, coll, desc, descItem, int32, ref, resource, str, type Fields, type ResourceDef } from '../dsl.js';

/**
 * Finance domain: the chart of accounts (seed) and its dimensions. balanceSheetDimension is the
 * seed's; the other seven dimensions share its shape (data standard 5.x; not shown by the seed).
 */

const dimensionFields = (): Fields => ({
  code: str(16, K),
  fiscalYear: int32(K),
  codeName: str(100, N),
  reportingTags: coll(descItem('reportingTag')),
});

const dimension = (name: string): ResourceDef => resource({ name, fields: dimensionFields() });

export const balanceSheetDimension = dimension('balanceSheetDimension');
export const functionDimension = dimension('functionDimension');
export const fundDimension = dimension('fundDimension');
export const objectDimension = dimension('objectDimension');
export const operationalUnitDimension = dimension('operationalUnitDimension');
export const programDimension = dimension('programDimension');
export const projectDimension = dimension('projectDimension');
export const sourceDimension = dimension('sourceDimension');

/**
 * Each dimension reference carries `code` (role-named per dimension) and `fiscalYear`, which is
 * shared with the account's own fiscal year.
 */
export const chartOfAccount = resource({
  name: 'chartOfAccount',
  fields: {
    accountIdentifier: str(50, K),
    fiscalYear: int32(K),
    educationOrganizationReference: ref('educationOrganization', K),
    accountTypeDescriptor: desc('accountType', R),
    accountName: str(100, N),
    balanceSheetDimensionReference: ref('balanceSheetDimension', {}, { code: 'balanceSheetCode' }),
    functionDimensionReference: ref('functionDimension', {}, { code: 'functionCode' }),
    fundDimensionReference: ref('fundDimension', {}, { code: 'fundCode' }),
    objectDimensionReference: ref('objectDimension', {}, { code: 'objectCode' }),
    operationalUnitDimensionReference: ref('operationalUnitDimension', {}, { code: 'operationalUnitCode' }),
    programDimensionReference: ref('programDimension', {}, { code: 'programCode' }),
    projectDimensionReference: ref('projectDimension', {}, { code: 'projectCode' }),
    sourceDimensionReference: ref('sourceDimension', {}, { code: 'sourceCode' }),
    reportingTags: coll({
      reportingTagDescriptor: desc('reportingTag', K),
      tagValue: str(100, N),
    }),
  },
});
