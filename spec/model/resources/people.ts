import { K, N, R, bool, coll, date, desc, descItem, double, int32, resource, str, type Fields } from '../dsl.js';
import { address } from './education-organizations.js';

/**
 * Person records (supporting, data standard 5.x): students, staff and contacts. A new person
 * record is reachable for relationship-based authorization only through an association
 * (studentSchoolAssociation, staffSchoolAssociation, studentContactAssociation ...).
 */

/** An e-mail address of a person (staff, contact, studentEducationOrganizationAssociation). */
export const electronicMail = (): Fields => ({
  electronicMailAddress: str(128, K),
  electronicMailTypeDescriptor: desc('electronicMailType', K),
  doNotPublishIndicator: bool(N),
  primaryEmailAddressIndicator: bool(N),
});

/** A telephone number of a person. */
export const telephone = (): Fields => ({
  telephoneNumber: str(24, K),
  telephoneNumberTypeDescriptor: desc('telephoneNumberType', K),
  doNotPublishIndicator: bool(N),
  orderOfPriority: int32(N),
  textMessageCapabilityIndicator: bool(N),
});

/** Name members shared by every person record. */
const personNames = (): Fields => ({
  firstName: str(75, R),
  lastSurname: str(75, R),
  middleName: str(75, N),
  generationCodeSuffix: str(10, N),
  personalTitlePrefix: str(30, N),
  maidenName: str(75, N),
  preferredFirstName: str(75, N),
  preferredLastSurname: str(75, N),
});

export const student = resource({
  name: 'student',
  person: 'student',
  fields: {
    studentUniqueId: str(32, K),
    ...personNames(),
    birthDate: date(R),
    birthCity: str(30, N),
    birthCountryDescriptor: desc('country', N),
    birthInternationalProvince: str(150, N),
    birthSexDescriptor: desc('sex', N),
    birthStateAbbreviationDescriptor: desc('stateAbbreviation', N),
    citizenshipStatusDescriptor: desc('citizenshipStatus', N),
    dateEnteredUS: date(N),
    multipleBirthStatus: bool(N),
  },
});

export const staff = resource({
  name: 'staff',
  person: 'staff',
  fields: {
    staffUniqueId: str(32, K),
    ...personNames(),
    birthDate: date(N),
    sexDescriptor: desc('sex', N),
    hispanicLatinoEthnicity: bool(N),
    races: coll(descItem('race')),
    citizenshipStatusDescriptor: desc('citizenshipStatus', N),
    highestCompletedLevelOfEducationDescriptor: desc('levelOfEducation', N),
    highlyQualifiedTeacher: bool(N),
    loginId: str(60, N),
    yearsOfPriorProfessionalExperience: double(N),
    yearsOfPriorTeachingExperience: double(N),
    addresses: coll(address),
    electronicMails: coll(electronicMail()),
    identificationCodes: coll({
      staffIdentificationSystemDescriptor: desc('staffIdentificationSystem', K),
      assigningOrganizationIdentificationCode: str(60, N),
      identificationCode: str(60, R),
    }),
    telephones: coll(telephone()),
  },
});

export const contact = resource({
  name: 'contact',
  person: 'contact',
  fields: {
    contactUniqueId: str(32, K),
    ...personNames(),
    sexDescriptor: desc('sex', N),
    highestCompletedLevelOfEducationDescriptor: desc('levelOfEducation', N),
    loginId: str(60, N),
    addresses: coll(address),
    electronicMails: coll(electronicMail()),
    telephones: coll(telephone()),
  },
});
