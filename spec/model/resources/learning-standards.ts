import { K, N, R, coll, desc, descItem, ref, refItem, resource, str } from '../dsl.js';
import { contentStandard } from './assessment.js';

/**
 * Learning standards and objectives: supporting resources (not shown by the seed; course and
 * assessmentItem reference them). learningStandard follows data standard 5.x; learningObjective
 * no longer exists in 5.x (the seed's course still references it), so it follows 4.0.
 */

export const learningStandard = resource({
  name: 'learningStandard',
  fields: {
    learningStandardId: str(60, K),
    academicSubjects: coll(descItem('academicSubject'), R),
    gradeLevels: coll(descItem('gradeLevel'), R),
    contentStandard: contentStandard(R),
    description: str(1024, R),
    namespace: str(255, R),
    parentLearningStandardReference: ref('learningStandard', {}, { learningStandardId: 'parentLearningStandardId' }),
    courseTitle: str(60, N),
    learningStandardCategoryDescriptor: desc('learningStandardCategory', N),
    learningStandardItemCode: str(60, N),
    successCriteria: str(150, N),
    uri: str(255, N),
  },
});

export const learningObjective = resource({
  name: 'learningObjective',
  fields: {
    learningObjectiveId: str(60, K),
    namespace: str(255, K),
    objective: str(60, R),
    academicSubjects: coll(descItem('academicSubject'), R),
    description: str(1024, N),
    gradeLevels: coll(descItem('gradeLevel')),
    learningStandards: coll(refItem('learningStandard')),
    nomenclature: str(100, N),
    successCriteria: str(150, N),
  },
});
