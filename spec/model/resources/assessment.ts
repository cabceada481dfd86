import { K, N, R, bool, coll, date, desc, descItem, double, int32, obj, ref, refItem, resource, str, type FieldFlags, type Fields } from '../dsl.js';

/**
 * Assessment domain (seed): assessments and assessment items. Item shapes the seed leaves out
 * (platformTypes, programs, sections, scores) follow the public data standard 5.x.
 */

/** A content standard (assessment.contentStandard, learningStandard.contentStandard). */
export const contentStandardFields = (): Fields => ({
  title: str(75, R),
  publicationStatusDescriptor: desc('publicationStatus', N),
  beginDate: date(N),
  endDate: date(N),
  publicationDate: date(N),
  publicationYear: int32(N),
  uri: str(255, N),
  version: str(50, N),
  // Role-named: the mandating organization is not the owning one.
  mandatingEducationOrganizationReference: ref('educationOrganization', {}, { educationOrganizationId: 'mandatingEducationOrganizationId' }),
  authors: coll({ author: str(100, K) }),
});

export const contentStandard = (flags: FieldFlags = {}) => obj(contentStandardFields(), flags);

export const assessment = resource({
  name: 'assessment',
  fields: {
    assessmentIdentifier: str(60, K),
    namespace: str(255, K),
    educationOrganizationReference: ref('educationOrganization'),
    assessmentTitle: str(255, R),
    academicSubjects: coll(descItem('academicSubject'), R),
    adaptiveAssessment: bool(N),
    assessedGradeLevels: coll(descItem('gradeLevel'), { description: 'No items: the assessment is not associated with any grade level.' }),
    assessmentCategoryDescriptor: desc('assessmentCategory', N),
    assessmentFamily: str(60, N),
    assessmentForm: str(60, N),
    assessmentVersion: int32(N),
    contentStandard: contentStandard(),
    identificationCodes: coll({
      assessmentIdentificationSystemDescriptor: desc('assessmentIdentificationSystem', K),
      assigningOrganizationIdentificationCode: str(60, N),
      identificationCode: str(60, R),
    }),
    languages: coll(descItem('language')),
    maxRawScore: double(N),
    nomenclature: str(100, N),
    performanceLevels: coll({
      assessmentReportingMethodDescriptor: desc('assessmentReportingMethod', K),
      performanceLevelDescriptor: desc('performanceLevel', K),
      resultDatatypeTypeDescriptor: desc('resultDatatypeType', N),
      maximumScore: str(35, N),
      minimumScore: str(35, N),
      performanceLevelIndicatorName: str(60, N),
    }),
    periods: coll({
      assessmentPeriodDescriptor: desc('assessmentPeriod', K),
      beginDate: date(N),
      endDate: date(N),
    }),
    // Not shown by the seed; data standard 5.x item shapes.
    platformTypes: coll(descItem('platformType')),
    programs: coll({
      programReference: ref('program', K, { educationOrganizationId: 'programEducationOrganizationId' }),
    }),
    revisionDate: date(N),
    scores: coll({
      assessmentReportingMethodDescriptor: desc('assessmentReportingMethod', K),
      minimumScore: str(35, N),
      maximumScore: str(35, N),
      resultDatatypeTypeDescriptor: desc('resultDatatypeType', N),
    }),
    sections: coll(refItem('section')),
  },
});

export const assessmentItem = resource({
  name: 'assessmentItem',
  fields: {
    identificationCode: str(60, K),
    assessmentReference: ref('assessment', K),
    assessmentItemCategoryDescriptor: desc('assessmentItemCategory', N),
    assessmentItemURI: str(255, N),
    expectedTimeAssessed: str(30, N),
    itemText: str(1024, N),
    maxRawScore: double(N),
    nomenclature: str(100, N),
    learningStandards: coll(refItem('learningStandard')),
    possibleResponses: coll({
      responseValue: str(60, K),
      correctResponse: bool(N),
      responseDescription: str(1024, N),
    }),
  },
});
