import { DatePicker } from 'antd';
import dayjs from 'dayjs';
import { useListParams } from '../../components/list-params';
import { DATE_FORMATS } from '../../lib/dates';

/** A calendar month bound to the `year` and `month` URL parameters; cleared, the list decides (all months, or the current one). */
export function MonthFilter({ placeholder, allowClear = true }: { placeholder: string; allowClear?: boolean }) {
  const list = useListParams();
  const { year, month } = list.filters;
  const value = year && month ? dayjs(`${year}-${String(month).padStart(2, '0')}-01`) : null;
  return (
    <DatePicker
      picker="month"
      format={DATE_FORMATS.month}
      placeholder={placeholder}
      allowClear={allowClear}
      value={value}
      onChange={(d) => list.update({ year: d ? d.year() : undefined, month: d ? d.month() + 1 : undefined })}
    />
  );
}
