import { K, N, R, coll, date, desc, descItem, ext, resource, str } from '../dsl.js';

/** Credential domain (seed). */
export const credential = resource({
  name: 'credential',
  fields: {
    credentialIdentifier: str(60, K),
    stateOfIssueStateAbbreviationDescriptor: desc('stateAbbreviation', K),
    credentialTypeDescriptor: desc('credentialType', R),
    issuanceDate: date(R),
    namespace: str(255, R),
    credentialFieldDescriptor: desc('credentialField', N),
    effectiveDate: date(N),
    expirationDate: date(N),
    teachingCredentialBasisDescriptor: desc('teachingCredentialBasis', N),
    teachingCredentialDescriptor: desc('teachingCredential', N),
    academicSubjects: coll(descItem('academicSubject')),
    endorsements: coll({ credentialEndorsement: str(255, K) }),
    gradeLevels: coll(descItem('gradeLevel')),
    _ext: ext(),
  },
});
