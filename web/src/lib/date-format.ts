// The date format the statistics screen writes its days in (spec 3 §9: dd-MM-yyyy by default,
// yyyy/MM/dd, dd.MM.yyyy or shortDate), a choice remembered in this browser (decision 172).
import { DATE_FORMATS, type DateFormat } from '../../../schema/dates';
import { storedChoice } from './stored-choice';

const dateFormat = storedChoice<DateFormat>('statsDateFormat', DATE_FORMATS, 'dd-MM-yyyy');
export const setDateFormat = dateFormat.set;
export const useDateFormat = dateFormat.use;

export const DATE_FORMAT_OPTIONS = DATE_FORMATS.map((f) => ({
  value: f,
  label: f === 'shortDate' ? 'Short date (M/d/yy)' : f,
}));
